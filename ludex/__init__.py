"""Ludex for client authors: `ludex.client` speaks to a running Ludex service."""
