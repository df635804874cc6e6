import { type ActionContext, type ActionName, type Actor, actionDenial } from '@berth/core';
import { useCallback } from 'react';
import { useActor } from './actor.tsx';

/**
 * Where an action is taken: the environment's id (null or undefined when the resource names none, which
 * core denies: there is nothing to check against), or, for role management, whether the caller admins
 * the role.
 */
export type ActionWhere = string | null | undefined | Pick<ActionContext, 'isRoleAdmin'>;

function contextOf(where: ActionWhere): ActionContext {
  if (where === null || where === undefined) return {};
  return typeof where === 'string' ? { environmentId: where } : where;
}

/** The reason the actor may not take the action: core's `actionDenial`, the spec's tooltip text. */
export function denialFor(actor: Actor, action: ActionName, where?: ActionWhere): string | null {
  return actionDenial(actor, action, contextOf(where));
}

/**
 * Why the caller may not take an action (the spec's tooltip text), or null when they may. The console
 * asks core's action catalog, the same one the server authorizes by, so a button is disabled exactly
 * when the server would refuse.
 *
 *   const denial = useActionDenial('app.deploy', app.environmentId);
 *   const renameDenial = useActionDenial('role.rename', { isRoleAdmin });
 */
export function useActionDenial(action: ActionName, where?: ActionWhere): string | null {
  return denialFor(useActor(), action, where);
}

/**
 * The same question for a component that asks several, or asks per row or cell while rendering (hooks
 * cannot be called in a loop): a function of the action and where it is taken.
 */
export function useActionDenials(): (action: ActionName, where?: ActionWhere) => string | null {
  const actor = useActor();
  return useCallback((action, where) => denialFor(actor, action, where), [actor]);
}
