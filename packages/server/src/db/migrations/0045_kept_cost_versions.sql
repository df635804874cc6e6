CREATE TABLE "cost_versions" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cost_versions" ADD CONSTRAINT "cost_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 40: the costs lists keep their answers under the organization's cost version. Any change to a kept
-- cost row adds one to it, once per transaction and at its commit (a deferred trigger): taken last, the
-- version row's lock cannot join a cycle with the cost rows' own locks, and a transaction that changes
-- 50,000 rows updates it once (a transaction-local setting marks the organizations already counted).
-- A reader that sees the new version sees the rows it counts: both commit together.
CREATE FUNCTION cost_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_row resource_costs%ROWTYPE;
  v_org uuid;
  v_mark text;
BEGIN
  IF TG_OP = 'DELETE' THEN v_row := OLD; ELSE v_row := NEW; END IF;
  v_org := coalesce(v_row.organization_id,
    (SELECT organization_id FROM environments WHERE id = v_row.environment_id));
  IF v_org IS NULL THEN RETURN NULL; END IF;
  v_mark := 'berth_cost_versions.o' || replace(v_org::text, '-', '');
  IF current_setting(v_mark, true) = '1' THEN RETURN NULL; END IF;
  PERFORM set_config(v_mark, '1', true);
  -- An organization deleted in this transaction has nothing left to count.
  INSERT INTO cost_versions AS kept (organization_id, version)
  SELECT v_org, 1 WHERE EXISTS (SELECT 1 FROM organizations WHERE id = v_org)
  ON CONFLICT (organization_id) DO UPDATE SET version = kept.version + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER cost_versions_bump AFTER INSERT OR UPDATE OR DELETE ON resource_costs
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION cost_versions_bump();
