-- Node positions are bounded (|x|, |y| <= 10^7) and sizes too (width, height <= 10^5): docs/contract.md, "Limits".
-- Nodes stored before are brought within the bounds by this migration's data step (src/store/data-migrations.ts),
-- which reads every stored node once; a revert to an older revision does the same to the bodies it restores.
SELECT 1;
