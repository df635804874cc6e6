import { isValidEmail, MAX_LENGTH, plainTextProblem } from '@berth/core';
import { invalidPath, invalidSyntax, invalidValue, ScimError } from './scim-errors.ts';
import { type AttributePath, type Filter, parseAttributePath, parseFilter } from './scim-filter.ts';
import { GROUP_SCHEMA, SCIM_LIMITS, USER_SCHEMA } from './scim-schemas.ts';

// What a request body asks, read the way RFC 7643/7644 and the identity providers write it: attribute
// names without regard to case, with or without their schema's URN, booleans as JSON or as the strings
// Entra sends ("False"), and PATCH in the RFC's form and Entra's ("Replace", values keyed by path).
// Attributes Berth does not keep (phone numbers, titles, the enterprise extension) are accepted and not
// stored, so an identity provider's default mappings do not fail; what Berth keeps is checked.

/** A user's attributes as a request sets them; absent means "not said". */
export interface UserChanges {
  userName?: string;
  externalId?: string | null;
  givenName?: string | null;
  familyName?: string | null;
  formatted?: string | null;
  displayName?: string | null;
  active?: boolean;
}

/** One change to a group's members, in the order the request gave them. */
export type MemberChange =
  | { kind: 'add' | 'remove'; userIds: string[] }
  | { kind: 'set'; userIds: string[] }
  | { kind: 'removeAll' };

export interface GroupChanges {
  displayName?: string;
  members: MemberChange[];
}

export type PatchOperation = 'add' | 'replace' | 'remove';

/** A PATCH path: an attribute, an optional value filter (`members[value eq "…"]`), an optional sub-attribute. */
export interface PatchPath {
  attribute: AttributePath;
  filter: Filter | null;
  sub: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function text(value: unknown, label: string, max: number): string {
  if (typeof value !== 'string') throw invalidValue(`${label} must be a string`);
  if (value.length > max) throw invalidValue(`${label} must be at most ${max} characters`);
  const problem = plainTextProblem(value, label);
  if (problem !== null) throw invalidValue(problem);
  return value.trim();
}

/** A string, or null (and "" reads as null: nothing to keep). */
function optionalText(value: unknown, label: string, max: number): string | null {
  if (value === null || value === undefined) return null;
  const read = text(value, label, max);
  return read === '' ? null : read;
}

/** spec 1 §9: the unique identifier is the email, so userName must be one. */
function userName(value: unknown): string {
  const read = text(value, 'userName', MAX_LENGTH.email);
  if (!isValidEmail(read)) throw invalidValue('userName must be an email address');
  return read;
}

/** JSON booleans, and the strings Entra sends ("True", "False"). */
function booleanValue(value: unknown, label: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  throw invalidValue(`${label} must be true or false`);
}

/** Whether a path's schema (if any) is the resource's core schema; any other is an extension we do not keep. */
function inSchema(path: AttributePath, schema: string): boolean {
  return path.schema === null || path.schema.toLowerCase() === schema.toLowerCase();
}

export function parsePatchPath(raw: unknown): PatchPath {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidPath('path must be a non-empty string');
  if (raw.length > 500) throw invalidPath('path must be at most 500 characters');
  const value = raw.trim();
  try {
    const bracket = value.indexOf('[');
    if (bracket === -1) return { attribute: parseAttributePath(value), filter: null, sub: null };
    const close = value.lastIndexOf(']');
    if (close < bracket) throw invalidPath(`"${value.slice(0, 100)}" is not a path`);
    const after = value.slice(close + 1);
    if (after !== '' && !after.startsWith('.')) throw invalidPath(`"${value.slice(0, 100)}" is not a path`);
    const sub = after === '' ? null : parseAttributePath(after.slice(1)).name;
    return {
      attribute: parseAttributePath(value.slice(0, bracket)),
      filter: parseFilter(value.slice(bracket + 1, close)),
      sub,
    };
  } catch (error) {
    // A path that does not parse is invalidPath (RFC 7644 §3.5.2), whatever part of it failed.
    if (error instanceof ScimError && error.scimType === 'invalidFilter') throw invalidPath(error.detail);
    throw error;
  }
}

/** Sets one user attribute from a path and a value (`op` remove clears it). */
function setUserAttribute(changes: UserChanges, path: PatchPath, op: PatchOperation, value: unknown) {
  const { attribute } = path;
  if (!inSchema(attribute, USER_SCHEMA)) return;
  const removing = op === 'remove';
  switch (attribute.name) {
    case 'username':
      if (removing) throw invalidValue('userName is required and cannot be removed');
      changes.userName = userName(value);
      return;
    case 'externalid':
      changes.externalId = removing ? null : optionalText(value, 'externalId', SCIM_LIMITS.externalId);
      return;
    case 'displayname':
      changes.displayName = removing ? null : optionalText(value, 'displayName', SCIM_LIMITS.name);
      return;
    case 'active':
      // Removing `active` leaves it as it is: only false takes someone out.
      if (!removing) changes.active = booleanValue(value, 'active');
      return;
    case 'name': {
      const sub = attribute.sub ?? path.sub;
      if (sub === null) {
        if (removing) {
          changes.givenName = null;
          changes.familyName = null;
          changes.formatted = null;
          return;
        }
        if (!isObject(value)) throw invalidValue('name must be an object');
        for (const [key, inner] of Object.entries(value)) {
          setUserAttribute(
            changes,
            { attribute: { ...attribute, sub: key.toLowerCase() }, filter: null, sub: null },
            op,
            inner,
          );
        }
        return;
      }
      const read = removing ? null : optionalText(value, `name.${sub}`, SCIM_LIMITS.name);
      if (sub === 'givenname') changes.givenName = read;
      else if (sub === 'familyname') changes.familyName = read;
      else if (sub === 'formatted') changes.formatted = read;
      return;
    }
    default:
      // id and meta are the server's; emails follow userName; the rest is not kept (see above).
      return;
  }
}

/** Reads an object of attributes (`{"userName": …, "name": {…}}`, or keyed by paths as Entra sends them). */
function readUserObject(changes: UserChanges, object: Record<string, unknown>, op: PatchOperation) {
  for (const [key, value] of Object.entries(object)) {
    const lower = key.toLowerCase();
    if (lower === 'schemas' || lower === 'id' || lower === 'meta') continue;
    // The core schema as a container of its attributes.
    if (lower === USER_SCHEMA.toLowerCase()) {
      if (isObject(value)) readUserObject(changes, value, op);
      continue;
    }
    const path = parsePatchPath(key);
    setUserAttribute(changes, path, op, value);
  }
}

/** The body of POST /Users or PUT /Users/:id. A replace clears what it leaves out (RFC 7644 §3.5.1). */
export function userFromBody(body: unknown, replacing: boolean): UserChanges & { userName: string } {
  if (!isObject(body)) throw invalidSyntax('The body must be a JSON object');
  const changes: UserChanges = replacing
    ? { externalId: null, givenName: null, familyName: null, formatted: null, displayName: null }
    : {};
  readUserObject(changes, body, 'replace');
  if (changes.userName === undefined) throw invalidValue('userName is required');
  return { ...changes, userName: changes.userName };
}

/** The operations of a PATCH body, each with its op in lower case (Entra writes "Replace"). */
function operationsOf(body: unknown): { op: PatchOperation; path: unknown; value: unknown }[] {
  if (!isObject(body)) throw invalidSyntax('The body must be a JSON object');
  const operations = Object.entries(body).find(([key]) => key.toLowerCase() === 'operations')?.[1];
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalidSyntax('Operations must be a non-empty array');
  }
  if (operations.length > SCIM_LIMITS.operations) {
    throw invalidSyntax(`A PATCH holds at most ${SCIM_LIMITS.operations} operations`);
  }
  return operations.map((operation) => {
    if (!isObject(operation)) throw invalidSyntax('Each operation must be an object');
    const field = (name: string) =>
      Object.entries(operation).find(([key]) => key.toLowerCase() === name)?.[1];
    const op = typeof field('op') === 'string' ? (field('op') as string).toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') {
      throw invalidSyntax('op must be add, replace or remove');
    }
    return { op, path: field('path'), value: field('value') };
  });
}

/** A user PATCH as the changes it makes, applied in order. */
export function userPatch(body: unknown): UserChanges {
  const changes: UserChanges = {};
  for (const { op, path, value } of operationsOf(body)) {
    if (path === undefined || path === null || path === '') {
      if (op === 'remove') throw new ScimError(400, 'A remove needs a path', 'noTarget');
      if (!isObject(value)) throw invalidValue('Without a path, value must be an object of attributes');
      readUserObject(changes, value, op);
    } else {
      setUserAttribute(changes, parsePatchPath(path), op, value);
    }
  }
  return changes;
}

/** `[{"value": "<user id>"}, …]`: the user ids a members value names. */
function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > SCIM_LIMITS.members) {
    throw invalidValue(`At most ${SCIM_LIMITS.members} members can be given at once`);
  }
  return list.map((member) => {
    if (!isObject(member)) throw invalidValue('Each member must be an object with a value');
    const id = Object.entries(member).find(([key]) => key.toLowerCase() === 'value')?.[1];
    if (typeof id !== 'string' || id.length === 0 || id.length > MAX_LENGTH.id) {
      throw invalidValue('Each member’s value must be a user id');
    }
    return id;
  });
}

/** The ids a filter such as `value eq "a" or value eq "b"` names: the only member filters accepted. */
function idsOfMemberFilter(filter: Filter): string[] {
  if (filter.kind === 'or') return [...idsOfMemberFilter(filter.left), ...idsOfMemberFilter(filter.right)];
  if (
    filter.kind === 'compare' &&
    filter.operator === 'eq' &&
    filter.path.name === 'value' &&
    filter.path.sub === null &&
    typeof filter.value === 'string'
  ) {
    return [filter.value];
  }
  throw invalidPath('Members are chosen with value eq "<user id>"');
}

function displayName(value: unknown): string {
  const read = text(value, 'displayName', SCIM_LIMITS.name);
  if (read === '') throw invalidValue('displayName is required');
  return read;
}

function setGroupAttribute(changes: GroupChanges, path: PatchPath, op: PatchOperation, value: unknown) {
  const { attribute } = path;
  if (!inSchema(attribute, GROUP_SCHEMA)) return;
  if (attribute.name === 'displayname') {
    if (op === 'remove') throw invalidValue('displayName is required and cannot be removed');
    changes.displayName = displayName(value);
    return;
  }
  if (attribute.name !== 'members') return;
  if (attribute.sub !== null || path.sub !== null)
    throw invalidPath('Members are changed as a whole: path members');
  if (path.filter) {
    if (op !== 'remove') throw invalidPath('A member filter is only for remove');
    changes.members.push({ kind: 'remove', userIds: idsOfMemberFilter(path.filter) });
    return;
  }
  if (op === 'remove') {
    // Entra names the members to remove in value; without one, every member goes (RFC 7644 §3.5.2.2).
    changes.members.push(
      value === undefined || value === null
        ? { kind: 'removeAll' }
        : { kind: 'remove', userIds: memberIds(value) },
    );
    return;
  }
  changes.members.push({ kind: op === 'add' ? 'add' : 'set', userIds: memberIds(value ?? []) });
}

function readGroupObject(changes: GroupChanges, object: Record<string, unknown>, op: PatchOperation) {
  for (const [key, value] of Object.entries(object)) {
    const lower = key.toLowerCase();
    if (lower === 'schemas' || lower === 'id' || lower === 'meta') continue;
    if (lower === GROUP_SCHEMA.toLowerCase()) {
      if (isObject(value)) readGroupObject(changes, value, op);
      continue;
    }
    setGroupAttribute(changes, parsePatchPath(key), op, value);
  }
}

/** The body of POST /Groups or PUT /Groups/:id: its name, and its members (a replace sets them). */
export function groupFromBody(body: unknown): { displayName: string; memberIds: string[] } {
  if (!isObject(body)) throw invalidSyntax('The body must be a JSON object');
  const changes: GroupChanges = { members: [] };
  readGroupObject(changes, body, 'replace');
  if (changes.displayName === undefined) throw invalidValue('displayName is required');
  let memberIds: string[] = [];
  for (const change of changes.members) if (change.kind === 'set') memberIds = change.userIds;
  return { displayName: changes.displayName, memberIds };
}

/** A group PATCH: its new name, if any, and its member changes in order. */
export function groupPatch(body: unknown): GroupChanges {
  const changes: GroupChanges = { members: [] };
  for (const { op, path, value } of operationsOf(body)) {
    if (path === undefined || path === null || path === '') {
      if (op === 'remove') throw new ScimError(400, 'A remove needs a path', 'noTarget');
      if (!isObject(value)) throw invalidValue('Without a path, value must be an object of attributes');
      readGroupObject(changes, value, op);
    } else {
      setGroupAttribute(changes, parsePatchPath(path), op, value);
    }
  }
  return changes;
}
