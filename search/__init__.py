"""Playing well: determinisation of hidden information and the bots that search over it.

Floor 3 of Ludex (see `../shared/DESIGN.md`): it consumes `runtime/` and never imports
`api/` or `ludex/`.
"""
