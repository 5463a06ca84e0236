"""Death of the Vele (seed 002, digest shared/rules/vele.md): a rotating narrator, struggles and a
dice economy in which every die is in a pool, the bowl, a sheet, or spent by a rule that says so.

Rule IDs: V-<n> is rule n of the digest's section 2, V-EX-<n> test case n of section 5 and
V-AMB-<n> reading n of section 6.
"""
