import { Context } from '@temporalio/activity';

/** The attempt of the activity this code runs in (1 = first); undefined outside an activity. */
export function activityAttempt(): number | undefined {
  try {
    return Context.current().info.attempt;
  } catch {
    // A test or the local runner (`forge skills try`) calls activity code directly.
    return undefined;
  }
}
