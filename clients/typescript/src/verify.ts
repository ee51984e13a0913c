/** Checking a finished game's seed against the commitment published when it was created. */
import { createHash } from "node:crypto";

/** Whether `seedHex` (GetGameRecord's / GameFinished's seed, 32 hex digits) hashes to
 * `seedSha256` (Game.seed_sha256): the SHA-256 of the seed's 16 big-endian bytes, in hex. */
export function verifySeedCommitment(seedHex: string, seedSha256: string): boolean {
  if (!/^[0-9a-f]{32}$/i.test(seedHex)) return false;
  return createHash("sha256").update(Buffer.from(seedHex, "hex")).digest("hex") === seedSha256.toLowerCase();
}
