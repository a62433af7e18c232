"""Protocol definitions; Python modules here are generated from the .proto files (not committed)."""
