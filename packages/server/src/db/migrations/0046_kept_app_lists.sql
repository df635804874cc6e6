CREATE TABLE "app_list_versions" (
	"environment_id" bigint PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_list_versions" ADD CONSTRAINT "app_list_versions_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 40: the bare apps lists keep their answers under the versions of the environments they cover. Any
-- change to an app adds one to its environment's version, once per transaction and at its commit (a
-- deferred trigger, as cost_versions in 0045: taken last, the version row's lock cannot join a cycle with
-- the apps' own locks). A transaction that changes 5,000 apps of one environment updates it once: a
-- transaction-local setting lists the environments already counted. A reader that sees the new version
-- sees the apps it counts: both commit together.
CREATE FUNCTION app_list_versions_bump_environment(p_environment bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_counted text := coalesce(current_setting('berth.app_list_versions_counted', true), '');
BEGIN
  IF p_environment IS NULL OR strpos(v_counted, ' ' || p_environment::text || ' ') > 0 THEN RETURN; END IF;
  PERFORM set_config('berth.app_list_versions_counted', v_counted || ' ' || p_environment::text || ' ', true);
  -- An environment deleted in this transaction (its apps go with it) has no list left to count.
  INSERT INTO app_list_versions AS kept (environment_id, version)
  SELECT p_environment, 1 WHERE EXISTS (SELECT 1 FROM environments WHERE id = p_environment)
  ON CONFLICT (environment_id) DO UPDATE SET version = kept.version + 1;
END
$$;
--> statement-breakpoint
-- The app's environment, and on an update that moves it, the one it left too.
CREATE FUNCTION app_list_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM app_list_versions_bump_environment(OLD.environment_id);
    RETURN NULL;
  END IF;
  PERFORM app_list_versions_bump_environment(NEW.environment_id);
  IF TG_OP = 'UPDATE' AND OLD.environment_id IS DISTINCT FROM NEW.environment_id THEN
    PERFORM app_list_versions_bump_environment(OLD.environment_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER app_list_versions_bump AFTER INSERT OR UPDATE OR DELETE ON apps
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION app_list_versions_bump();
