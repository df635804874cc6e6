export const endpointKeys = {
  all: ['endpoints'] as const,
  lists: () => [...endpointKeys.all, 'list'] as const,
  /** A list by its API path: `/vhosts`, `/apps/{id}/vhosts`, `/accounts/{id}/vhosts`, `/certificates/{id}/vhosts`. */
  list: (path: string) => [...endpointKeys.lists(), path] as const,
  detail: (id: string) => [...endpointKeys.all, 'detail', id] as const,
};
