import { MAX_COMMIT_DOTS } from '../deployments/deployment.ts';

// spec 3 §2 "Home" and §9: what the home dashboard shows, and how much of it.

/** spec 3 §9: home shows the latest 5 activities (operations that are not polls). */
export const HOME_ACTIVITY_COUNT = 5;
/** spec 3 §9: the top source shows up to 7 live commits (its commit dots). */
export const HOME_LIVE_COMMIT_COUNT = MAX_COMMIT_DOTS;
/** spec 3 §2: polls are left out of home's activities. */
export const HOME_HIDDEN_OPERATION_TYPES = ['poll'] as const;

/** The home page's own texts (the spec names the cards, not their words). */
export const homeMessages = {
  feedbackTitle: 'Home is in beta',
  feedbackText: 'This page is new. Tell us what you would like to see here, or what is missing.',
  noActivity: 'No data found',
  noSource: 'No data found',
} as const;
