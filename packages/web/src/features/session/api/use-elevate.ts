import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../../../lib/session-store.ts';
import { type Credentials, createToken } from './create-token.ts';

/** spec 1 §2 "Elevation": re-enter credentials for a short-lived elevated token. */
export function useElevate() {
  return useMutation({
    mutationFn: async (credentials: Credentials) => {
      const token = await createToken(credentials, 'elevated');
      sessionStore.setElevatedToken(token);
      return token;
    },
  });
}
