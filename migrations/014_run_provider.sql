-- Which provider ran a run's last attempt (issue 22): local, openai-images, openai-speech; NULL until one finished.
ALTER TABLE node_runs ADD COLUMN provider TEXT;
