export const serviceKeys = {
  all: ['services'] as const,
  list: () => [...serviceKeys.all, 'list'] as const,
  ofApp: (appId: string) => [...serviceKeys.all, 'app', appId] as const,
  detail: (id: string) => [...serviceKeys.all, 'detail', id] as const,
  logs: (id: string, tail: number) => [...serviceKeys.all, 'logs', id, tail] as const,
};
