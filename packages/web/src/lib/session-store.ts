import {
  decodeTokenClaims,
  idFromHref,
  isElevatedValid,
  type TokenClaims,
  type TokenResource,
} from '@berth/core';
import { useSyncExternalStore } from 'react';

export interface SessionToken {
  id: string;
  accessToken: string;
  userId: string;
  userHref: string;
  actorHref: string | null;
  claims: TokenClaims | null;
}

/** contract §3.1 token (the session lives in lib, so its deserializer does too). */
export function fromTokenResource(token: TokenResource): SessionToken {
  const userHref = token._links.user.href;
  const userId = idFromHref(userHref);
  // contract §3.1: _links.user is a MUST; without it the console cannot load the user.
  if (!userId) throw new Error('The token has no user link');
  return {
    id: String(token.id),
    accessToken: token.access_token,
    userId,
    userHref,
    actorHref: token._links.actor?.href || null,
    claims: decodeTokenClaims(token.access_token),
  };
}

export type SessionPhase = 'booting' | 'anonymous' | 'authenticated';

export interface SessionState {
  phase: SessionPhase;
  /** Tokens live in memory only (contract §3.5); a reload restores the session through GET /current_token. */
  accessToken: SessionToken | null;
  elevatedToken: SessionToken | null;
  /** spec 3 §4: why boot ended without a session ("no token found"). */
  bootNote: string | null;
}

export const NO_TOKEN_FOUND = 'no token found';

export function createSessionStore() {
  let state: SessionState = { phase: 'booting', accessToken: null, elevatedToken: null, bootNote: null };
  const listeners = new Set<() => void>();
  const resetListeners = new Set<() => void>();

  function set(next: SessionState) {
    state = next;
    for (const listener of listeners) listener();
  }

  return {
    getState: (): SessionState => state,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn(token: SessionToken) {
      const sameUser = state.accessToken?.userId === token.userId;
      set({
        phase: 'authenticated',
        accessToken: token,
        elevatedToken: sameUser ? state.elevatedToken : null,
        bootNote: null,
      });
    },
    setElevatedToken(token: SessionToken) {
      set({ ...state, elevatedToken: token });
    },
    endBoot(note: string) {
      set({ phase: 'anonymous', accessToken: null, elevatedToken: null, bootNote: note });
    },
    /** spec 1 §4: drop the tokens and clear the store. Persisted state (redirectPath, notices...) is kept. */
    reset() {
      set({ phase: 'anonymous', accessToken: null, elevatedToken: null, bootNote: state.bootNote });
      for (const listener of resetListeners) listener();
    },
    onReset(listener: () => void): () => void {
      resetListeners.add(listener);
      return () => resetListeners.delete(listener);
    },
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

export const sessionStore = createSessionStore();

export function useSession(): SessionState {
  // The build's prerender (app/prerender.tsx) reads the same store: still booting.
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getState, sessionStore.getState);
}

/** The elevated token when it is still valid (spec 1 §4), else null. */
export function validElevatedToken(state: SessionState): SessionToken | null {
  const token = state.elevatedToken;
  return token && isElevatedValid(token.claims) ? token : null;
}
