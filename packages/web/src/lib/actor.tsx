import type { Actor } from '@berth/core';
import { createContext, type ReactNode, useContext } from 'react';

// The shell builds the caller's actor once (app/shell/use-console.ts) and fills this context, so any route,
// feature or component below it can ask about permissions without importing the shell (lib imports no app/).
const ActorContext = createContext<Actor | null>(null);

export function ActorProvider({ actor, children }: { actor: Actor; children: ReactNode }) {
  return <ActorContext value={actor}>{children}</ActorContext>;
}

/** The caller's actor in the selected organization. Only inside the signed-in shell (or a test's provider). */
export function useActor(): Actor {
  const actor = useContext(ActorContext);
  // A permission asked outside the shell would silently be "nobody"; failing loudly finds the misplaced call.
  if (!actor) throw new Error('useActor needs an ActorProvider (the signed-in shell provides one)');
  return actor;
}
