import {
  COST_RATES,
  type CostRates,
  containersMonthlyCost,
  diskMonthlyCost,
  iopsMonthlyCost,
} from '../costs/costs.ts';
import { DATABASE_DEFAULTS } from './database.schema.ts';

// Issue 41: a new database defaults to PostgreSQL's newest version from the catalog the console is
// given, and the create form shows what it will cost a month before it is created.

/** The engine a new database starts on (spec 2 §9's starter templates all suggest PostgreSQL). */
export const NEW_DATABASE_TYPE = 'postgresql';

/** Versions compare part by part as numbers (17 > 9.6 > 9.5); a part that is no number counts lowest. */
export function compareImageVersions(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const x = versionPart(left[index]);
    const y = versionPart(right[index]);
    if (x !== y) return x - y;
  }
  return 0;
}

function versionPart(part: string | undefined): number {
  if (part === undefined) return 0;
  const value = Number.parseInt(part, 10);
  return Number.isNaN(value) ? -1 : value;
}

/** The newest version of an engine among the images, or undefined when none is of that engine. */
export function newestImageOf<T extends { type: string; version: string }>(
  images: readonly T[],
  type: string,
): T | undefined {
  let newest: T | undefined;
  for (const image of images) {
    if (image.type !== type) continue;
    if (!newest || compareImageVersions(image.version, newest.version) > 0) newest = image;
  }
  return newest;
}

/** The image a new database form starts on: PostgreSQL's newest, else the first offered. */
export function newDatabaseImage<T extends { type: string; version: string }>(
  images: readonly T[],
): T | undefined {
  return newestImageOf(images, NEW_DATABASE_TYPE) ?? images[0];
}

export interface NewDatabaseSizing {
  containerSizeMb: number;
  diskSizeGb: number;
  /** spec 2 §9: 3000 unless asked; only IOPS above 3000 are billed. */
  provisionedIops?: number;
}

/**
 * What a new database costs a month as the server will price it (contract §4.3): its one container on
 * the default profile, its disk and the IOPS above the baseline. It has no endpoint yet and its backups
 * are billed by their size once taken, so neither is in this figure.
 */
export function newDatabaseMonthlyCost(sizing: NewDatabaseSizing, rates: CostRates = COST_RATES): number {
  return (
    containersMonthlyCost(
      {
        containerCount: 1,
        containerMemoryMb: sizing.containerSizeMb,
        instanceClass: DATABASE_DEFAULTS.instanceProfile,
      },
      rates,
    ) +
    diskMonthlyCost(sizing.diskSizeGb, rates) +
    iopsMonthlyCost(sizing.provisionedIops ?? DATABASE_DEFAULTS.provisionedIops, rates)
  );
}
