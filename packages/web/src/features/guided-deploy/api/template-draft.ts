import {
  projectDatabaseHandle,
  type StarterTemplate,
  type TemplateVariable,
  templateDatabaseVersion,
} from '@berth/core';
import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';
import type { ProjectDeployDraft } from './project-deploy.ts';

/** A database selector of the configure step: the variable, the image, and the handle it is made with. */
export interface DraftDatabase {
  envVar: string;
  imageId: string;
}

/**
 * The image a template's database is made with on the stack's runtime: the visible image of its type
 * and version, or the engine's default where the runtime needs another version (core's rule); '' when
 * none is offered, so the selector asks.
 */
export function templateImageId(
  database: StarterTemplate['databases'][number],
  runtime: string,
  images: readonly Pick<DatabaseImage, 'id' | 'type' | 'version' | 'visible' | 'isDefault'>[],
): string {
  const version = templateDatabaseVersion(database, runtime);
  const image = images.find(
    (item) =>
      item.visible &&
      item.type === database.type &&
      (version === null ? item.isDefault : item.version === version),
  );
  return image?.id ?? '';
}

/** The template's databases as configure-step selectors. */
export function templateDatabases(
  template: StarterTemplate | null,
  runtime: string,
  images: readonly Pick<DatabaseImage, 'id' | 'type' | 'version' | 'visible' | 'isDefault'>[],
): DraftDatabase[] {
  return (template?.databases ?? []).map((database) => ({
    envVar: database.envVar,
    imageId: templateImageId(database, runtime, images),
  }));
}

/** A secret the framework expects, made in the browser from its cryptographic random source. */
export function templateSecret(kind: Extract<TemplateVariable, { secret: string }>['secret']): string {
  const bytes = crypto.getRandomValues(new Uint8Array(kind === 'laravel-key' ? 32 : 64));
  if (kind === 'laravel-key') return `base64:${btoa(String.fromCharCode(...bytes))}`;
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The template's variables with their values (secrets made now); keys the app already has are kept. */
export function templateVariables(
  template: StarterTemplate | null,
  current: Readonly<Record<string, string | null>>,
): { key: string; value: string }[] {
  return (template?.variables ?? [])
    .filter((variable) => current[variable.key] === undefined || current[variable.key] === null)
    .map((variable) => ({
      key: variable.key,
      value: 'secret' in variable ? templateSecret(variable.secret) : variable.value,
    }));
}

/** Handles for the selectors' databases: after the app and engine, past the environment's own. */
export function draftDatabaseHandles(
  appHandle: string,
  databases: readonly DraftDatabase[],
  images: readonly Pick<DatabaseImage, 'id' | 'type'>[],
  existingHandles: readonly string[],
): string[] {
  const taken = new Set(existingHandles);
  return databases.map((database) => {
    const type = images.find((image) => image.id === database.imageId)?.type ?? 'database';
    const handle = projectDatabaseHandle(appHandle, type, taken);
    taken.add(handle);
    return handle;
  });
}

/** What a deploy of the template (or of custom code, `template` null) sends, before any editing. */
export function templateDeployDraft(input: {
  app: { id: string; handle: string; environmentId: string };
  template: StarterTemplate | null;
  runtime: string;
  images: readonly Pick<DatabaseImage, 'id' | 'type' | 'version' | 'visible' | 'isDefault'>[];
  existingDatabaseHandles: readonly string[];
  currentEnv: Readonly<Record<string, string | null>>;
  gitRef: string;
}): ProjectDeployDraft {
  const databases = templateDatabases(input.template, input.runtime, input.images);
  const handles = draftDatabaseHandles(
    input.app.handle,
    databases,
    input.images,
    input.existingDatabaseHandles,
  );
  const current = Object.entries(input.currentEnv)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([key, value]) => ({ key, value }));
  return {
    appId: input.app.id,
    environmentId: input.app.environmentId,
    databases: databases.map((database, index) => ({
      ...database,
      handle: handles[index] ?? '',
      type: input.images.find((image) => image.id === database.imageId)?.type ?? '',
    })),
    // The app's own variables stay; a database's variable is the database's from now on.
    variables: [...current, ...templateVariables(input.template, input.currentEnv)].filter(
      (variable) => !databases.some((database) => database.envVar === variable.key),
    ),
    currentEnv: input.currentEnv,
    gitRef: input.gitRef,
  };
}
