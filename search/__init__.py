"""Playing well: belief-consistent determinisation, information-set search, rule-text policies,
simple bots and tournaments' match logic. One algorithm a file:

- `determinise`: one world a seat could be in, uniform among the deals its knowledge allows;
- `ismcts`: single-observer ISMCTS, re-determinising at other seats' nodes;
- `policy`: the runner of `policy NAME { ... }` blocks;
- `bots`: random, greedy, plain UCT, and `make_bot` (a bot by name);
- `values`: what a finished or cut-short game is worth to each seat;
- `tournament`: round-robin schedules, one game from a plain config, Bradley-Terry ratings.

Floor 3 of Ludex (see `../shared/DESIGN.md`): it consumes `runtime/` and never imports
`api/` or `ludex/`.
"""
