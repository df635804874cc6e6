-- Global search (issue 38) reads each tenant's rows only: its trigram indexes (0037) are led by the
-- environment (or the organization), which a GIN index holds beside the trigrams through btree_gin.
-- btree_gin ships with PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13, so the
-- database's owner may create it; PGlite loads its build of it (db/pglite-extensions.ts).
CREATE EXTENSION IF NOT EXISTS btree_gin;
