/** Reading replies. */

/** The message a reply must carry (`rpc` names the call in the error when it does not). */
export function required<T>(value: T | undefined, rpc: string): T {
  if (value === undefined) throw new Error(`${rpc} answered without its message`);
  return value;
}
