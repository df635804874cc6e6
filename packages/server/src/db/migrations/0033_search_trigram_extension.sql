-- Global search (issue 38) matches text anywhere in handles, host names, git refs and images through
-- trigram indexes (0034). pg_trgm ships with PostgreSQL (contrib) and is a trusted extension since
-- PostgreSQL 13, so the database's owner may create it; PGlite loads its build of it (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
