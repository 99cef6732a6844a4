// The list of common and breached passwords a new password may not be: the
// "passwords-common" dictionary of @zxcvbn-ts/language-common (about 49,000
// passwords from breach corpora, most used first). Server only: the list never
// ships to the browser (app pages import no *.server module).

let common: Promise<Set<string>> | undefined;

/** Loaded on first use (about 30 ms), then kept: a Set of lower-case passwords. */
function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"].map((p) => p.toLowerCase())),
  );
  return common;
}

/** Whether the password is on the list, ignoring letter case and surrounding spaces. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.trim().toLowerCase());
}
