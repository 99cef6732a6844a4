import { formatAmount, site } from "../../config/site";
import { productName } from "../settings/offer-settings.server";

/** A message ready for the outbox: the recipient is added by the caller. */
export type MessageContent = { subject: string; text: string; html: string };

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

type Block = { text: string } | { link: string; label: string };

/** Builds the plain-text and HTML bodies from the same blocks, so the two never drift apart. */
function compose(subject: string, greetingName: string, blocks: Block[]): MessageContent {
  const greeting = `Hi ${greetingName || "there"},`;
  const footer = `Questions? Write to ${site.supportEmail}.\n\n${site.brand}`;
  const text = [
    greeting,
    ...blocks.map((b) => ("text" in b ? b.text : `${b.label}:\n${b.link}`)),
    footer,
  ].join("\n\n");
  const paragraph = (inner: string) => `<p style="margin:0 0 16px">${inner}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;font-size:16px;line-height:1.5;color:#1e293b">',
    paragraph(escapeHtml(greeting)),
    ...blocks.map((b) =>
      "text" in b
        ? paragraph(escapeHtml(b.text).replaceAll("\n", "<br>"))
        : paragraph(
            `<a href="${escapeHtml(b.link)}" style="color:#4f46e5">${escapeHtml(b.label)}</a><br><span style="font-size:13px;color:#64748b">${escapeHtml(b.link)}</span>`,
          ),
    ),
    paragraph(
      `Questions? Write to <a href="mailto:${escapeHtml(site.supportEmail)}">${escapeHtml(site.supportEmail)}</a>.`,
    ),
    paragraph(escapeHtml(site.brand)),
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}

/** For a buyer whose account the marketplace sale created: how to set a password. */
export function loginDetailsMessage(input: {
  name: string;
  email: string;
  setPasswordUrl: string;
  loginUrl: string;
}): MessageContent {
  return compose(`Your ${site.brand} login details`, input.name, [
    { text: `Thank you for your purchase. Your ${site.brand} account is ready.` },
    { text: `Your login e-mail: ${input.email}` },
    { text: "Choose your password with the link below. It is valid for 24 hours and works once." },
    { link: input.setPasswordUrl, label: "Set your password" },
    { text: "Then sign in here:" },
    { link: input.loginUrl, label: "Sign in" },
    {
      text: "If you were expecting this e-mail and cannot find later ones from us, look in your spam or junk folder and mark us as not spam.",
    },
  ]);
}

/** The link of a password reset the user asked for. */
export function passwordResetMessage(input: { name: string; resetUrl: string }): MessageContent {
  return compose(`Reset your ${site.brand} password`, input.name, [
    { text: "Someone (we hope you) asked to reset the password of your account." },
    { text: "Choose a new password with the link below. It is valid for 1 hour and works once." },
    { link: input.resetUrl, label: "Reset your password" },
    { text: "If you did not ask for this, ignore this e-mail: your password stays as it is." },
  ]);
}

/** The one-time sign-in link sent when an account's sign-ins from new places are held back. */
export function signInLinkMessage(input: { name: string; signInUrl: string }): MessageContent {
  return compose(`Sign in to ${site.brand}`, input.name, [
    {
      text: "Many wrong passwords were tried for your account from places you have not signed in from, so we hold back sign-ins from new places for a while.",
    },
    {
      text: "To sign in now, open the link below and enter your password. It is valid for 1 hour and works once.",
    },
    { link: input.signInUrl, label: "Sign in" },
    {
      text: "If this was not you, your account is safe: nobody got in. Choose a long password you use nowhere else if yours is short.",
    },
  ]);
}

/** Tells the account's owner their password was changed on the account page. */
export function passwordChangedMessage(input: {
  name: string;
  when: Date;
  forgotPasswordUrl: string;
}): MessageContent {
  return compose(`Your ${site.brand} password was changed`, input.name, [
    {
      text: `The password of your account was changed on ${input.when.toISOString().slice(0, 16).replace("T", " at ")} UTC, and every other device was signed out.`,
    },
    { text: "If that was you, there is nothing to do." },
    {
      text: `If it was not you, ask for a link to choose a new password below, then write to ${site.supportEmail}.`,
    },
    { link: input.forgotPasswordUrl, label: "Choose a new password" },
  ]);
}

/** The receipt of a completed purchase. */
export function purchaseReceiptMessage(input: {
  name: string;
  product: string;
  amountCents: number;
  currency: string;
  orderNumber: string;
  reference: string;
  date: Date;
  receiptUrl: string;
  dashboardUrl: string;
}): MessageContent {
  const amount = formatAmount(input.amountCents, input.currency);
  return compose(`Your ${site.brand} receipt`, input.name, [
    { text: "Thank you for your purchase. This is your receipt." },
    {
      text: [
        `Order number: ${input.orderNumber}`,
        `Product: ${productName(input.product)}`,
        `Amount: ${amount}`,
        `Date: ${input.date.toISOString().slice(0, 10)}`,
        `Payment reference: ${input.reference}`,
      ].join("\n"),
    },
    { text: "Quote your order number whenever you write to us about this purchase." },
    { link: input.receiptUrl, label: "View and print your receipt" },
    { link: input.dashboardUrl, label: "Go to your training area" },
    { text: "Not happy? Our 30-day money-back guarantee applies: e-mail support." },
  ]);
}

/** To the new address of an account: the link that confirms it. */
export function confirmNewEmailMessage(input: {
  name: string;
  newEmail: string;
  confirmUrl: string;
}): MessageContent {
  return compose(`Confirm your new ${site.brand} e-mail address`, input.name, [
    { text: `You asked to sign in to ${site.brand} with ${input.newEmail} from now on.` },
    { text: "Confirm it with the link below. It is valid for 24 hours and works once." },
    { link: input.confirmUrl, label: "Confirm your new address" },
    {
      text: "Until then you sign in with your current address. If you did not ask for this, ignore this e-mail.",
    },
  ]);
}

/** To the current address of an account: a change to another address was asked for. */
export function emailChangeAskedMessage(input: {
  name: string;
  newEmail: string;
  forgotPasswordUrl: string;
}): MessageContent {
  return compose(`Your ${site.brand} e-mail address is being changed`, input.name, [
    {
      text: `Someone signed in to your account asked to change its e-mail address to ${input.newEmail}. Nothing changes until that address confirms it.`,
    },
    {
      text: `If that was not you, choose a new password now with the link below, then write to ${site.supportEmail}.`,
    },
    { link: input.forgotPasswordUrl, label: "Choose a new password" },
  ]);
}

/** To the former address of an account: the change was confirmed. */
export function emailChangedMessage(input: { name: string; newEmail: string }): MessageContent {
  return compose(`Your ${site.brand} e-mail address was changed`, input.name, [
    {
      text: `Your account's e-mail address is now ${input.newEmail}: sign in with it from now on. This address gets no more e-mail about the account.`,
    },
    { text: `If that was not you, write to ${site.supportEmail} at once.` },
  ]);
}
