/** The activity report queries: an environment's pages. */
export const activityReportKeys = {
  all: ['activity_reports'] as const,
  ofEnvironment: (environmentId: string) => [...activityReportKeys.all, environmentId] as const,
  page: (environmentId: string, page: number) =>
    [...activityReportKeys.ofEnvironment(environmentId), page] as const,
};
