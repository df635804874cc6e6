CREATE TABLE "cost_versions" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cost_versions" ADD CONSTRAINT "cost_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 40: the costs lists keep their answers under the organization's cost version. Any change to a kept
-- cost row adds one to it, once per transaction and at its commit (a deferred trigger): taken last, the
-- version row's lock cannot join a cycle with the cost rows' own locks (two transactions that each change
-- two organizations' costs, in opposite orders, can still deadlock at commit; PostgreSQL then rolls one
-- back). A transaction that changes 50,000 rows updates it once: a transaction-local setting lists the
-- organizations already counted. A reader that sees the new version sees the rows it counts: both commit
-- together.
CREATE FUNCTION cost_versions_bump_organization(p_organization uuid, p_environment integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := coalesce(p_organization,
    (SELECT organization_id FROM environments WHERE id = p_environment));
  v_counted text := coalesce(current_setting('berth.cost_versions_counted', true), '');
BEGIN
  IF v_org IS NULL OR strpos(v_counted, v_org::text) > 0 THEN RETURN; END IF;
  PERFORM set_config('berth.cost_versions_counted', v_counted || ' ' || v_org::text, true);
  -- An organization deleted in this transaction has nothing left to count.
  INSERT INTO cost_versions AS kept (organization_id, version)
  SELECT v_org, 1 WHERE EXISTS (SELECT 1 FROM organizations WHERE id = v_org)
  ON CONFLICT (organization_id) DO UPDATE SET version = kept.version + 1;
END
$$;
--> statement-breakpoint
-- The row's organization, and on an update that moves it, the one it left too.
CREATE FUNCTION cost_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM cost_versions_bump_organization(OLD.organization_id, OLD.environment_id);
    RETURN NULL;
  END IF;
  PERFORM cost_versions_bump_organization(NEW.organization_id, NEW.environment_id);
  IF TG_OP = 'UPDATE' AND (OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.environment_id IS DISTINCT FROM NEW.environment_id) THEN
    PERFORM cost_versions_bump_organization(OLD.organization_id, OLD.environment_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER cost_versions_bump AFTER INSERT OR UPDATE OR DELETE ON resource_costs
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cost_versions_bump();
