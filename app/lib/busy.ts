/**
 * What a person is told when the server is past its capacity (decisions 026
 * and 030): a request turned away busy is answered 503 with Retry-After, and
 * the page says so in these words.
 */
export const serverBusy = "We are busy right now. Please try again in a few seconds.";

/** The short form, where a button's own message says it ("Mark as complete"). */
export const busyTryAgain = "Busy, try again";
