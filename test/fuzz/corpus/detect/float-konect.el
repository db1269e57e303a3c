% konect
1 2 0.25
2 2 1e2
