-- Each run of a day names the version of the game's rules it was played
-- under, so a re-run is compared only with runs under the same rules and a
-- rollback can say which days new rules would change. Every run stored
-- before versions were recorded was played under the first.

ALTER TABLE day_runs ADD COLUMN rules_version INTEGER NOT NULL DEFAULT 1;
