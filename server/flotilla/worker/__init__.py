"""Stateless rules workers."""
