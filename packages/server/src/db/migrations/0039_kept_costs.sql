CREATE TABLE "resource_costs" (
	"owner_type" text NOT NULL,
	"owner_id" bigint NOT NULL,
	"organization_id" uuid,
	"environment_id" integer NOT NULL,
	"m_class_memory_mb" bigint DEFAULT 0 NOT NULL,
	"c_class_memory_mb" bigint DEFAULT 0 NOT NULL,
	"r_class_memory_mb" bigint DEFAULT 0 NOT NULL,
	"endpoints" integer DEFAULT 0 NOT NULL,
	"shared_endpoints" integer DEFAULT 0 NOT NULL,
	"disk_gb" bigint DEFAULT 0 NOT NULL,
	"extra_iops" bigint DEFAULT 0 NOT NULL,
	"backup_gb" numeric DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resource_costs_owner_type_owner_id_pk" PRIMARY KEY("owner_type","owner_id"),
	CONSTRAINT "resource_costs_owner_type_check" CHECK ("resource_costs"."owner_type" in ('app', 'database', 'environment', 'service'))
);
--> statement-breakpoint
CREATE INDEX "resource_costs_type_env_owner_idx" ON "resource_costs" USING btree ("owner_type","environment_id","owner_id");--> statement-breakpoint
CREATE INDEX "resource_costs_org_idx" ON "resource_costs" USING btree ("organization_id");--> statement-breakpoint
-- Issue 40: each owner's cost inputs kept by triggers in the same transaction as the change. The rows hold
-- quantities (container MB by class family, endpoints, disk GB, IOPS above the included 3000, backup GB);
-- the prices stay in @berth/core. kept-costs.test.ts proves these match the costs summed the old way.
-- The family of an instance class as @berth/core's instanceClassFamily reads it; an unknown class is m.
CREATE FUNCTION resource_cost_family(p_instance_class text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN f IN ('m', 'c', 'r') THEN f ELSE 'm' END
  FROM (SELECT lower(left(btrim(p_instance_class, E' \t\n\r\f\v'), 1)) AS f) AS first_letter
$$;
--> statement-breakpoint
-- What a service's containers weigh: count × memory (MB), in its class family's column.
CREATE FUNCTION resource_cost_container_mb(p_instance_class text, p_count integer, p_memory_mb integer, p_family text)
RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN resource_cost_family(p_instance_class) = p_family
    THEN greatest(p_count, 0)::bigint * greatest(p_memory_mb, 0) ELSE 0 END
$$;
--> statement-breakpoint
-- Adds (p_sign 1) or takes away (-1) quantities from one row; a row that is gone is left alone.
CREATE FUNCTION resource_cost_add(
  p_type text, p_id bigint, p_sign integer,
  p_m bigint, p_c bigint, p_r bigint, p_endpoints integer, p_shared integer,
  p_disk_gb bigint, p_extra_iops bigint, p_backup_gb numeric
) RETURNS void LANGUAGE sql AS $$
  UPDATE resource_costs SET
    m_class_memory_mb = m_class_memory_mb + p_sign * p_m,
    c_class_memory_mb = c_class_memory_mb + p_sign * p_c,
    r_class_memory_mb = r_class_memory_mb + p_sign * p_r,
    endpoints = endpoints + p_sign * p_endpoints,
    shared_endpoints = shared_endpoints + p_sign * p_shared,
    disk_gb = disk_gb + p_sign * p_disk_gb,
    extra_iops = extra_iops + p_sign * p_extra_iops,
    backup_gb = backup_gb + p_sign * p_backup_gb,
    updated_at = now()
  WHERE owner_type = p_type AND owner_id = p_id
$$;
--> statement-breakpoint
-- An app's or database's row from its resources (a few rows each, read by their owner indexes).
CREATE FUNCTION resource_cost_recompute_owner(p_type text, p_id bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_app bigint := CASE WHEN p_type = 'app' THEN p_id END;
  v_database bigint := CASE WHEN p_type = 'database' THEN p_id END;
BEGIN
  IF p_id IS NULL THEN RETURN; END IF;
  -- Locked first, then summed by a statement of its own: under read committed that statement sees what a
  -- concurrent change to another of the owner's resources committed while this one waited for the lock.
  PERFORM 1 FROM resource_costs WHERE owner_type = p_type AND owner_id = p_id FOR UPDATE;
  UPDATE resource_costs SET
    m_class_memory_mb = containers.m, c_class_memory_mb = containers.c, r_class_memory_mb = containers.r,
    endpoints = balanced.endpoints, shared_endpoints = balanced.shared,
    disk_gb = disk.size_gb, extra_iops = disk.extra_iops, backup_gb = backup.size_gb,
    updated_at = now()
  FROM
    (SELECT
       coalesce(sum(resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'm')), 0) AS m,
       coalesce(sum(resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'c')), 0) AS c,
       coalesce(sum(resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'r')), 0) AS r
     FROM services WHERE app_id = v_app OR database_id = v_database) AS containers,
    (SELECT count(*) FILTER (WHERE NOT vhosts.shared) AS endpoints, count(*) FILTER (WHERE vhosts.shared) AS shared
     FROM vhosts JOIN services ON services.id = vhosts.service_id
     WHERE (services.app_id = v_app OR services.database_id = v_database) AND vhosts.external_host IS NOT NULL) AS balanced,
    (SELECT coalesce(sum(greatest(size, 0)), 0) AS size_gb, coalesce(sum(greatest(provisioned_iops - 3000, 0)), 0) AS extra_iops
     FROM disks WHERE database_id = v_database) AS disk,
    (SELECT coalesce(sum(size_gb)::numeric, 0) AS size_gb FROM backups WHERE database_id = v_database) AS backup
  WHERE owner_type = p_type AND owner_id = p_id;
END
$$;
--> statement-breakpoint
-- An environment's row from every priced resource living in it: for filling the table, not per change.
CREATE FUNCTION resource_cost_recompute_environment(p_id bigint) RETURNS void
LANGUAGE sql AS $$
  UPDATE resource_costs SET
    m_class_memory_mb = containers.m, c_class_memory_mb = containers.c, r_class_memory_mb = containers.r,
    endpoints = balanced.endpoints, shared_endpoints = balanced.shared,
    disk_gb = disk.size_gb, extra_iops = disk.extra_iops, backup_gb = backup.size_gb,
    updated_at = now()
  FROM
    (SELECT
       coalesce(sum(resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'm')), 0) AS m,
       coalesce(sum(resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'c')), 0) AS c,
       coalesce(sum(resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'r')), 0) AS r
     FROM services WHERE environment_id = p_id) AS containers,
    (SELECT count(*) FILTER (WHERE NOT shared) AS endpoints, count(*) FILTER (WHERE shared) AS shared
     FROM vhosts WHERE environment_id = p_id AND external_host IS NOT NULL) AS balanced,
    (SELECT coalesce(sum(greatest(size, 0)), 0) AS size_gb, coalesce(sum(greatest(provisioned_iops - 3000, 0)), 0) AS extra_iops
     FROM disks WHERE environment_id = p_id) AS disk,
    (SELECT coalesce(sum(size_gb::numeric), 0) AS size_gb FROM backups WHERE environment_id = p_id) AS backup
  WHERE owner_type = 'environment' AND owner_id = p_id
$$;
--> statement-breakpoint
-- A new owner's row (its resources come after it); its organization is its environment's.
CREATE FUNCTION resource_cost_insert_owner(p_type text, p_id bigint, p_environment_id bigint) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO resource_costs (owner_type, owner_id, organization_id, environment_id)
  SELECT p_type, p_id, environments.organization_id, p_environment_id FROM environments WHERE environments.id = p_environment_id
  ON CONFLICT (owner_type, owner_id) DO NOTHING
$$;
--> statement-breakpoint
CREATE FUNCTION resource_costs_owner_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_type text := TG_ARGV[0];
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM resource_costs WHERE owner_type = v_type AND owner_id = OLD.id;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM resource_cost_insert_owner(v_type, NEW.id, NEW.environment_id);
    PERFORM resource_cost_recompute_owner(v_type, NEW.id);
  ELSE
    UPDATE resource_costs SET environment_id = NEW.environment_id,
      organization_id = (SELECT organization_id FROM environments WHERE id = NEW.environment_id), updated_at = now()
    WHERE owner_type = v_type AND owner_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION resource_costs_environment_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM resource_costs WHERE owner_type = 'environment' AND owner_id = OLD.id;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM resource_cost_insert_owner('environment', NEW.id, NEW.id);
  ELSE
    UPDATE resource_costs SET organization_id = NEW.organization_id, updated_at = now() WHERE environment_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A service's containers: its own row, its environment's (by difference), and its app's or database's.
CREATE FUNCTION resource_costs_service_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM resource_cost_add('environment', OLD.environment_id, -1,
      resource_cost_container_mb(OLD.instance_class, OLD.container_count, OLD.container_memory_limit_mb, 'm'),
      resource_cost_container_mb(OLD.instance_class, OLD.container_count, OLD.container_memory_limit_mb, 'c'),
      resource_cost_container_mb(OLD.instance_class, OLD.container_count, OLD.container_memory_limit_mb, 'r'),
      0, 0, 0, 0, 0);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM resource_cost_add('environment', NEW.environment_id, 1,
      resource_cost_container_mb(NEW.instance_class, NEW.container_count, NEW.container_memory_limit_mb, 'm'),
      resource_cost_container_mb(NEW.instance_class, NEW.container_count, NEW.container_memory_limit_mb, 'c'),
      resource_cost_container_mb(NEW.instance_class, NEW.container_count, NEW.container_memory_limit_mb, 'r'),
      0, 0, 0, 0, 0);
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM resource_costs WHERE owner_type = 'service' AND owner_id = OLD.id;
  ELSE
    PERFORM resource_cost_insert_owner('service', NEW.id, NEW.environment_id);
    UPDATE resource_costs SET
      environment_id = NEW.environment_id,
      m_class_memory_mb = resource_cost_container_mb(NEW.instance_class, NEW.container_count, NEW.container_memory_limit_mb, 'm'),
      c_class_memory_mb = resource_cost_container_mb(NEW.instance_class, NEW.container_count, NEW.container_memory_limit_mb, 'c'),
      r_class_memory_mb = resource_cost_container_mb(NEW.instance_class, NEW.container_count, NEW.container_memory_limit_mb, 'r'),
      updated_at = now()
    WHERE owner_type = 'service' AND owner_id = NEW.id;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM resource_cost_recompute_owner('app', OLD.app_id);
    PERFORM resource_cost_recompute_owner('database', OLD.database_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF TG_OP = 'INSERT' OR NEW.app_id IS DISTINCT FROM OLD.app_id THEN
      PERFORM resource_cost_recompute_owner('app', NEW.app_id);
    END IF;
    IF TG_OP = 'INSERT' OR NEW.database_id IS DISTINCT FROM OLD.database_id THEN
      PERFORM resource_cost_recompute_owner('database', NEW.database_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- An endpoint counts once it has a load balancer (an external host), at the shared rate when shared.
CREATE FUNCTION resource_costs_vhost_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_owner record;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.external_host IS NOT NULL THEN
    PERFORM resource_cost_add('environment', OLD.environment_id, -1, 0, 0, 0,
      CASE WHEN OLD.shared THEN 0 ELSE 1 END, CASE WHEN OLD.shared THEN 1 ELSE 0 END, 0, 0, 0);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.external_host IS NOT NULL THEN
    PERFORM resource_cost_add('environment', NEW.environment_id, 1, 0, 0, 0,
      CASE WHEN NEW.shared THEN 0 ELSE 1 END, CASE WHEN NEW.shared THEN 1 ELSE 0 END, 0, 0, 0);
  END IF;
  -- A service deleted with its endpoints is gone already: its owner was recomputed when it went.
  FOR v_owner IN
    SELECT app_id, database_id FROM services
    WHERE id IN (CASE WHEN TG_OP <> 'INSERT' THEN OLD.service_id END, CASE WHEN TG_OP <> 'DELETE' THEN NEW.service_id END)
  LOOP
    PERFORM resource_cost_recompute_owner('app', v_owner.app_id);
    PERFORM resource_cost_recompute_owner('database', v_owner.database_id);
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION resource_costs_disk_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM resource_cost_add('environment', OLD.environment_id, -1, 0, 0, 0, 0, 0,
      greatest(OLD.size, 0), greatest(OLD.provisioned_iops - 3000, 0), 0);
    PERFORM resource_cost_recompute_owner('database', OLD.database_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM resource_cost_add('environment', NEW.environment_id, 1, 0, 0, 0, 0, 0,
      greatest(NEW.size, 0), greatest(NEW.provisioned_iops - 3000, 0), 0);
    IF TG_OP = 'INSERT' OR NEW.database_id IS DISTINCT FROM OLD.database_id OR NEW.size <> OLD.size
      OR NEW.provisioned_iops <> OLD.provisioned_iops THEN
      PERFORM resource_cost_recompute_owner('database', NEW.database_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A backup costs its database while there is one, and its environment always.
CREATE FUNCTION resource_costs_backup_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM resource_cost_add('environment', OLD.environment_id, -1, 0, 0, 0, 0, 0, 0, 0, OLD.size_gb::numeric);
    PERFORM resource_cost_recompute_owner('database', OLD.database_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM resource_cost_add('environment', NEW.environment_id, 1, 0, 0, 0, 0, 0, 0, 0, NEW.size_gb::numeric);
    IF TG_OP = 'INSERT' OR NEW.database_id IS DISTINCT FROM OLD.database_id OR NEW.size_gb <> OLD.size_gb THEN
      PERFORM resource_cost_recompute_owner('database', NEW.database_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER resource_costs_environments AFTER INSERT OR DELETE OR UPDATE OF organization_id ON environments
FOR EACH ROW EXECUTE FUNCTION resource_costs_environment_changed();
--> statement-breakpoint
CREATE TRIGGER resource_costs_apps AFTER INSERT OR DELETE OR UPDATE OF environment_id ON apps
FOR EACH ROW EXECUTE FUNCTION resource_costs_owner_changed('app');
--> statement-breakpoint
CREATE TRIGGER resource_costs_databases AFTER INSERT OR DELETE OR UPDATE OF environment_id ON databases
FOR EACH ROW EXECUTE FUNCTION resource_costs_owner_changed('database');
--> statement-breakpoint
CREATE TRIGGER resource_costs_services AFTER INSERT OR DELETE ON services
FOR EACH ROW EXECUTE FUNCTION resource_costs_service_changed();
--> statement-breakpoint
-- Services, endpoints and disks change often (status, release, hosts): only a priced column wakes the trigger.
CREATE TRIGGER resource_costs_services_priced AFTER UPDATE ON services FOR EACH ROW
WHEN (OLD.container_count IS DISTINCT FROM NEW.container_count
  OR OLD.container_memory_limit_mb IS DISTINCT FROM NEW.container_memory_limit_mb
  OR OLD.instance_class IS DISTINCT FROM NEW.instance_class
  OR OLD.environment_id IS DISTINCT FROM NEW.environment_id
  OR OLD.app_id IS DISTINCT FROM NEW.app_id
  OR OLD.database_id IS DISTINCT FROM NEW.database_id)
EXECUTE FUNCTION resource_costs_service_changed();
--> statement-breakpoint
CREATE TRIGGER resource_costs_vhosts AFTER INSERT OR DELETE ON vhosts
FOR EACH ROW EXECUTE FUNCTION resource_costs_vhost_changed();
--> statement-breakpoint
CREATE TRIGGER resource_costs_vhosts_priced AFTER UPDATE ON vhosts FOR EACH ROW
WHEN ((OLD.external_host IS NULL) IS DISTINCT FROM (NEW.external_host IS NULL)
  OR OLD.shared IS DISTINCT FROM NEW.shared
  OR OLD.service_id IS DISTINCT FROM NEW.service_id
  OR OLD.environment_id IS DISTINCT FROM NEW.environment_id)
EXECUTE FUNCTION resource_costs_vhost_changed();
--> statement-breakpoint
CREATE TRIGGER resource_costs_disks AFTER INSERT OR DELETE ON disks
FOR EACH ROW EXECUTE FUNCTION resource_costs_disk_changed();
--> statement-breakpoint
CREATE TRIGGER resource_costs_disks_priced AFTER UPDATE ON disks FOR EACH ROW
WHEN (OLD.size IS DISTINCT FROM NEW.size
  OR OLD.provisioned_iops IS DISTINCT FROM NEW.provisioned_iops
  OR OLD.database_id IS DISTINCT FROM NEW.database_id
  OR OLD.environment_id IS DISTINCT FROM NEW.environment_id)
EXECUTE FUNCTION resource_costs_disk_changed();
--> statement-breakpoint
CREATE TRIGGER resource_costs_backups AFTER INSERT OR DELETE ON backups
FOR EACH ROW EXECUTE FUNCTION resource_costs_backup_changed();
--> statement-breakpoint
CREATE TRIGGER resource_costs_backups_priced AFTER UPDATE ON backups FOR EACH ROW
WHEN (OLD.size_gb IS DISTINCT FROM NEW.size_gb
  OR OLD.database_id IS DISTINCT FROM NEW.database_id
  OR OLD.environment_id IS DISTINCT FROM NEW.environment_id)
EXECUTE FUNCTION resource_costs_backup_changed();
--> statement-breakpoint
-- Rows for what exists already.
INSERT INTO resource_costs (owner_type, owner_id, organization_id, environment_id)
SELECT 'environment', id, organization_id, id FROM environments;
--> statement-breakpoint
INSERT INTO resource_costs (owner_type, owner_id, organization_id, environment_id)
SELECT 'app', apps.id, environments.organization_id, apps.environment_id FROM apps JOIN environments ON environments.id = apps.environment_id;
--> statement-breakpoint
INSERT INTO resource_costs (owner_type, owner_id, organization_id, environment_id)
SELECT 'database', databases.id, environments.organization_id, databases.environment_id FROM databases JOIN environments ON environments.id = databases.environment_id;
--> statement-breakpoint
INSERT INTO resource_costs (owner_type, owner_id, organization_id, environment_id, m_class_memory_mb, c_class_memory_mb, r_class_memory_mb)
SELECT 'service', services.id, environments.organization_id, services.environment_id,
  resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'm'),
  resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'c'),
  resource_cost_container_mb(instance_class, container_count, container_memory_limit_mb, 'r')
FROM services JOIN environments ON environments.id = services.environment_id;
--> statement-breakpoint
SELECT resource_cost_recompute_owner('app', id) FROM apps;
--> statement-breakpoint
SELECT resource_cost_recompute_owner('database', id) FROM databases;
--> statement-breakpoint
SELECT resource_cost_recompute_environment(id) FROM environments;
