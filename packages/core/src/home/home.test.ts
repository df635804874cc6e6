import { describe, expect, it } from 'vitest';
import {
  HOME_ACTIVITY_COUNT,
  HOME_HIDDEN_OPERATION_TYPES,
  HOME_LIVE_COMMIT_COUNT,
  homeMessages,
} from './home.ts';

describe('home', () => {
  it("shows spec 3 §9's 5 activities, polls left out, and up to 7 live commits", () => {
    expect(HOME_ACTIVITY_COUNT).toBe(5);
    expect(HOME_LIVE_COMMIT_COUNT).toBe(7);
    expect(HOME_HIDDEN_OPERATION_TYPES).toEqual(['poll']);
  });

  it("says spec 3 §8's empty text where a card has nothing", () => {
    expect(homeMessages.noActivity).toBe('No data found');
    expect(homeMessages.noSource).toBe('No data found');
  });
});
