import { and, not, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { memberships, roles, scimUsers, users } from '../db/schema.ts';
import { isUuid } from '../http/ids.ts';
import { type AttributePath, type Filter, type FilterValue, invalidFilter } from './scim-filter.ts';
import { GROUP_SCHEMA, USER_SCHEMA } from './scim-schemas.ts';

// A parsed filter as a SQL condition on the tenant's users (scim_users joined with users) or groups
// (roles). Values travel as parameters; `co`, `sw` and `ew` escape LIKE's wildcards. Text compares
// without regard to case (lower() on both sides: userName's index is on lower(email)), except
// externalId, which RFC 7643 makes case-exact.

type Column = AnyPgColumn | SQL;

type Target =
  | { type: 'string'; column: Column; caseExact: boolean }
  | { type: 'boolean'; column: Column }
  | { type: 'id'; column: Column }
  | { type: 'exists'; condition: (inner: SQL) => SQL; inner: Resolver };

type Resolver = (path: AttributePath, inValuePath: boolean) => Target;

const describe = (path: AttributePath) => (path.sub ? `${path.name}.${path.sub}` : path.name);
const unsupported = (path: AttributePath) =>
  invalidFilter(`Filtering by "${describe(path).slice(0, 100)}" is not supported`);

const likeEscaped = (value: string) => value.replace(/[\\%_]/g, (character) => `\\${character}`);

function stringCondition(
  column: Column,
  caseExact: boolean,
  operator: string,
  value: FilterValue,
  path: AttributePath,
): SQL {
  if (typeof value !== 'string') throw invalidFilter(`"${describe(path)}" is compared with a string`);
  const left = caseExact ? sql`${column}` : sql`lower(${column})`;
  const right = (text: string) => (caseExact ? sql`${text}` : sql`lower(${text})`);
  switch (operator) {
    case 'eq':
      return sql`${left} = ${right(value)}`;
    case 'ne':
      return sql`(${column} is null or ${left} <> ${right(value)})`;
    case 'co':
      return sql`${left} like ${right(`%${likeEscaped(value)}%`)}`;
    case 'sw':
      return sql`${left} like ${right(`${likeEscaped(value)}%`)}`;
    case 'ew':
      return sql`${left} like ${right(`%${likeEscaped(value)}`)}`;
    default:
      throw invalidFilter(`The operator "${operator}" is not supported for "${describe(path)}"`);
  }
}

function condition(filter: Filter, resolve: Resolver, inValuePath: boolean): SQL {
  switch (filter.kind) {
    case 'and':
      return and(
        condition(filter.left, resolve, inValuePath),
        condition(filter.right, resolve, inValuePath),
      ) as SQL;
    case 'or':
      return or(
        condition(filter.left, resolve, inValuePath),
        condition(filter.right, resolve, inValuePath),
      ) as SQL;
    case 'valuePath': {
      if (inValuePath) throw invalidFilter('A value filter cannot hold another');
      const target = resolve(filter.path, false);
      if (target.type !== 'exists') throw unsupported(filter.path);
      return target.condition(condition(filter.filter, target.inner, true));
    }
    case 'present': {
      const target = resolve(filter.path, inValuePath);
      if (target.type === 'exists') return target.condition(sql`true`);
      return sql`${target.column} is not null and ${target.column}::text <> ''`;
    }
    case 'compare': {
      const { operator, value, path } = filter;
      const target = resolve(path, inValuePath);
      if (target.type === 'string')
        return stringCondition(target.column, target.caseExact, operator, value, path);
      if (target.type === 'boolean') {
        if (typeof value !== 'boolean')
          throw invalidFilter(`"${describe(path)}" is compared with true or false`);
        if (operator === 'eq') return sql`${target.column} = ${value}`;
        if (operator === 'ne') return sql`${target.column} <> ${value}`;
        throw invalidFilter(`The operator "${operator}" is not supported for "${describe(path)}"`);
      }
      if (target.type === 'id') {
        if (typeof value !== 'string') throw invalidFilter(`"${describe(path)}" is compared with a string`);
        // An id that is no UUID names no row: a condition, not an error.
        const equal = isUuid(value) ? sql`${target.column} = ${value}` : sql`false`;
        if (operator === 'eq') return equal;
        if (operator === 'ne') return not(equal);
        throw invalidFilter(`The operator "${operator}" is not supported for "${describe(path)}"`);
      }
      // `members eq "<id>"`: a member with that id.
      if (operator !== 'eq')
        throw invalidFilter(`The operator "${operator}" is not supported for "${describe(path)}"`);
      return target.condition(
        condition({ ...filter, path: { schema: null, name: 'value', sub: null } }, target.inner, true),
      );
    }
  }
}

function inSchema(path: AttributePath, schema: string) {
  return path.schema === null || path.schema.toLowerCase() === schema.toLowerCase();
}

/** Inside `emails[…]`: the one address Berth keeps, the userName, of type work and primary. */
const emailResolver: Resolver = (path) => {
  if (path.sub !== null) throw unsupported(path);
  if (path.name === 'value') return { type: 'string', column: users.email, caseExact: false };
  if (path.name === 'type') return { type: 'string', column: sql`'work'`, caseExact: false };
  if (path.name === 'primary') return { type: 'boolean', column: sql`true` };
  throw unsupported(path);
};

const userResolver: Resolver = (path, inValuePath) => {
  if (inValuePath || !inSchema(path, USER_SCHEMA)) throw unsupported(path);
  const { name, sub } = path;
  if (name === 'id' && sub === null) return { type: 'id', column: users.id };
  if (name === 'username' && sub === null) return { type: 'string', column: users.email, caseExact: false };
  if (name === 'externalid' && sub === null) {
    return { type: 'string', column: scimUsers.externalId, caseExact: true };
  }
  if (name === 'displayname' && sub === null) return { type: 'string', column: users.name, caseExact: false };
  if (name === 'active' && sub === null) return { type: 'boolean', column: scimUsers.active };
  if (name === 'name' && sub === 'givenname') {
    return { type: 'string', column: scimUsers.givenName, caseExact: false };
  }
  if (name === 'name' && sub === 'familyname') {
    return { type: 'string', column: scimUsers.familyName, caseExact: false };
  }
  if (name === 'name' && sub === 'formatted') return { type: 'string', column: users.name, caseExact: false };
  if (name === 'emails' && (sub === null || sub === 'value')) {
    return sub === null
      ? { type: 'exists', condition: (inner) => inner, inner: emailResolver }
      : { type: 'string', column: users.email, caseExact: false };
  }
  throw unsupported(path);
};

/** Inside `members[…]`: the member's user id. */
const memberResolver: Resolver = (path) => {
  if (path.name === 'value' && path.sub === null) return { type: 'id', column: memberships.userId };
  throw unsupported(path);
};

/** A group's members are its holders whom provisioning manages in the group's organization. */
const hasMember = (inner: SQL) => sql`exists (
  select 1 from ${memberships}
  inner join ${scimUsers} on ${scimUsers.userId} = ${memberships.userId}
  where ${memberships.roleId} = ${roles.id} and ${scimUsers.organizationId} = ${roles.organizationId} and ${inner})`;

const groupResolver: Resolver = (path, inValuePath) => {
  if (inValuePath || !inSchema(path, GROUP_SCHEMA)) throw unsupported(path);
  const { name, sub } = path;
  if (name === 'id' && sub === null) return { type: 'id', column: roles.id };
  if (name === 'displayname' && sub === null) return { type: 'string', column: roles.name, caseExact: false };
  if (name === 'members' && (sub === null || sub === 'value')) {
    return { type: 'exists', condition: hasMember, inner: memberResolver };
  }
  throw unsupported(path);
};

/** The condition a filter puts on the tenant's users (a query over scim_users joined with users). */
export function userFilterCondition(filter: Filter): SQL {
  return condition(filter, userResolver, false);
}

/** The condition a filter puts on the tenant's groups (a query over roles). */
export function groupFilterCondition(filter: Filter): SQL {
  return condition(filter, groupResolver, false);
}
