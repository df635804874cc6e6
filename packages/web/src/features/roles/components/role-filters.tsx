import { type RoleFilters as Filters, ROLE_FILTER_PARAMS } from '@berth/core';
import { useId } from 'react';
import { useSearchParams } from 'react-router';

interface Option {
  id: string;
  label: string;
}

export interface RoleFiltersProps {
  roles: readonly Option[];
  users: readonly Option[];
  environments: readonly Option[];
}

/** spec 1 §2: the overview's filters live in the query string as role_id, user_id and environment_id. */
export function useRoleFilters(): Filters {
  const [params] = useSearchParams();
  return {
    roleId: params.get(ROLE_FILTER_PARAMS.roleId) || null,
    userId: params.get(ROLE_FILTER_PARAMS.userId) || null,
    environmentId: params.get(ROLE_FILTER_PARAMS.environmentId) || null,
  };
}

/** The three filter selects of the roles overview; "All" removes the parameter. */
export function RoleFilters({ roles, users, environments }: RoleFiltersProps) {
  const [params, setParams] = useSearchParams();
  const baseId = useId();
  const filters: { key: keyof typeof ROLE_FILTER_PARAMS; label: string; options: readonly Option[] }[] = [
    { key: 'roleId', label: 'Role', options: roles },
    { key: 'userId', label: 'User', options: users },
    { key: 'environmentId', label: 'Environment', options: environments },
  ];
  const change = (param: string, value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(param, value);
      else next.delete(param);
      next.delete('page');
      return next;
    });
  return (
    <div className="role-filters">
      {filters.map(({ key, label, options }) => {
        const param = ROLE_FILTER_PARAMS[key];
        const value = params.get(param) ?? '';
        const id = `${baseId}-${param}`;
        return (
          <div className="field" key={param}>
            <label className="field-label" htmlFor={id}>
              {label}
            </label>
            <select
              id={id}
              className="select"
              value={value}
              onChange={(event) => change(param, event.target.value)}
            >
              <option value="">All</option>
              {/* A filter from a shared link for something not listed still shows as chosen. */}
              {value && !options.some((option) => option.id === value) ? (
                <option value={value}>{value}</option>
              ) : null}
              {options.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
        );
      })}
    </div>
  );
}
