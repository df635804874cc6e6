-- Issue 40: a transaction's deferred bumps of its kept versions (cost_versions, 0045; app_list_versions,
-- 0046) run at its commit in the order their changes were made: creating an app bumps its environment's
-- app-list version and then its organization's cost version, finishing a deploy bumps them the other way
-- round, so the two could wait on each other's version rows until PostgreSQL rolled one back. Each bump
-- now first takes a transaction-scoped lock on the organization, so two transactions that bump versions of
-- one organization take them one after the other, in whatever order their own changes came.
CREATE FUNCTION kept_versions_lock_organization(p_organization uuid) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtext('berth.kept_versions'), hashtext(p_organization::text))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cost_versions_bump_organization(p_organization uuid, p_environment integer)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := coalesce(p_organization,
    (SELECT organization_id FROM environments WHERE id = p_environment));
  v_counted text := coalesce(current_setting('berth.cost_versions_counted', true), '');
BEGIN
  IF v_org IS NULL OR strpos(v_counted, v_org::text) > 0 THEN RETURN; END IF;
  PERFORM set_config('berth.cost_versions_counted', v_counted || ' ' || v_org::text, true);
  PERFORM kept_versions_lock_organization(v_org);
  -- An organization deleted in this transaction has nothing left to count.
  INSERT INTO cost_versions AS kept (organization_id, version)
  SELECT v_org, 1 WHERE EXISTS (SELECT 1 FROM organizations WHERE id = v_org)
  ON CONFLICT (organization_id) DO UPDATE SET version = kept.version + 1;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION app_list_versions_bump_environment(p_environment bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_counted text := coalesce(current_setting('berth.app_list_versions_counted', true), '');
  v_org uuid;
BEGIN
  IF p_environment IS NULL OR strpos(v_counted, ' ' || p_environment::text || ' ') > 0 THEN RETURN; END IF;
  PERFORM set_config('berth.app_list_versions_counted', v_counted || ' ' || p_environment::text || ' ', true);
  -- An environment deleted in this transaction (its apps go with it) has no list left to count.
  SELECT organization_id INTO v_org FROM environments WHERE id = p_environment;
  IF NOT FOUND THEN RETURN; END IF;
  -- An environment of no organization has no cost version to meet.
  IF v_org IS NOT NULL THEN PERFORM kept_versions_lock_organization(v_org); END IF;
  INSERT INTO app_list_versions AS kept (environment_id, version)
  SELECT p_environment, 1 WHERE EXISTS (SELECT 1 FROM environments WHERE id = p_environment)
  ON CONFLICT (environment_id) DO UPDATE SET version = kept.version + 1;
END
$$;
