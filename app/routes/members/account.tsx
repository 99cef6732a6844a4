import { data, redirect, useNavigation } from "react-router";
import { useCheckedForm } from "~/components/auth/checked-form";
import { Notice } from "~/components/form-answer";
import {
  DeleteAccountForm,
  EmailForm,
  NameForm,
  PasswordForm,
  ProductDownloads,
  PurchasesList,
  YourData,
} from "~/components/members/account-settings";
import { TwoFactorSettings } from "~/components/members/two-factor-settings";
import { PageShell } from "~/components/ui";
import { accountSchema, adminAccountKept } from "~/lib/account-forms";
import { passwordTooCommon } from "~/lib/password-rule";
import { productFilesOpenTo } from "~/server/admin/products.server";
import {
  changeEmail,
  changePassword,
  deleteOwnAccount,
  renameAccount,
} from "~/server/auth/account-settings.server";
import { requireMember } from "~/server/auth/guards.server";
import {
  confirmTwoFactorSetup,
  describeTwoFactorSetup,
  replaceRecoveryCodes,
  startTwoFactorSetup,
  takeRecoveryCodesToShow,
  turnOffTwoFactor,
} from "~/server/auth/two-factor.server";
import { getDb } from "~/server/db/db.server";
import { checkForm, readForm, redirectWithNotice, takeNotice } from "~/server/forms.server";
import { purchasesOf } from "~/server/payments/receipts.server";
import { productName } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/account";

export const meta: Route.MetaFunction = () => [{ title: "Account | AI Labs" }];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireMember(request);
  const db = await getDb();
  const [shown, purchases, files] = await Promise.all([
    takeRecoveryCodesToShow(request, user),
    purchasesOf(db, user.id),
    productFilesOpenTo(db, user),
  ]);
  const { notice, headers } = takeNotice(request);
  const answered = new Headers(shown?.headers);
  for (const cookie of headers?.getSetCookie() ?? []) answered.append("Set-Cookie", cookie);
  return data(
    {
      name: user.name,
      email: user.email,
      notice,
      twoFactorEnabled: user.twoFactorEnabled,
      isAdmin: user.isAdmin,
      recoveryCodes: shown?.recoveryCodes.length ? shown.recoveryCodes : null,
      purchases: purchases.map(({ createdAt: _, refundedAt: _r, ...listed }) => listed),
      downloads: files.map((group) => ({ ...group, name: productName(group.product) })),
    },
    { headers: answered },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireMember(request);
  const form = await readForm(request);
  // A refused code shows the same QR code and key again, beside the form's answer.
  const setupAgain = async (uri: unknown) => {
    const setup = typeof uri === "string" ? await describeTwoFactorSetup(uri) : null;
    return { setup: setup?.ok ? setup : undefined };
  };
  const checked = checkForm(form, accountSchema, ["intent", "name", "newEmail"]);
  if (!checked.ok) {
    if (form.get("intent") !== "confirm") return checked.refusal;
    const extra = await setupAgain(form.get("uri"));
    return checked.refuse(400, { fieldErrors: checked.fieldErrors }, { extra });
  }
  const { refuse } = checked;
  const input = checked.data;
  switch (input.intent) {
    case "change-name": {
      await renameAccount(user, input.name);
      throw redirectWithNotice("/account", "Your name was saved.");
    }
    case "change-password": {
      const changed = await changePassword(request, user, input);
      if (!changed.ok) {
        const field = changed.error === passwordTooCommon ? "newPassword" : "currentPassword";
        return refuse(400, { fieldErrors: { [field]: changed.error } });
      }
      // A redirect: every session but the new one in these headers has ended.
      throw redirectWithNotice(
        "/account",
        "Your password was changed. Every other device was signed out.",
        changed.headers,
      );
    }
    case "change-email": {
      const asked = await changeEmail(request, user, input);
      if (!asked.ok) return refuse(400, { fieldErrors: { [asked.field]: asked.error } });
      throw redirectWithNotice(
        "/account",
        `We sent a link to ${input.newEmail}: open it to confirm your new address. Until then you sign in with ${user.email}.`,
      );
    }
    case "delete-account": {
      const deleted = await deleteOwnAccount(request, user, input.deletePassword);
      if (!deleted.ok) {
        const field = deleted.error === adminAccountKept ? "deleteAccount" : "deletePassword";
        return refuse(400, { fieldErrors: { [field]: deleted.error } });
      }
      // Signed out here too (every session has ended): the sign-in page says it was deleted.
      throw redirect("/login?deleted=1", { headers: deleted.headers });
    }
    case "enable": {
      const setup = await startTwoFactorSetup(request, input.password);
      if (!setup.ok) return refuse(400, { fieldErrors: { password: setup.error } });
      return data({ setup });
    }
    case "confirm": {
      const confirmed = await confirmTwoFactorSetup(request, user, input.code);
      if (!confirmed.ok) {
        const extra = await setupAgain(input.uri);
        return refuse(400, { fieldErrors: { code: confirmed.error } }, { extra });
      }
      // A redirect, not data: this request's session was replaced, so its loaders would fail.
      throw redirect("/account", { headers: confirmed.headers });
    }
    case "disable": {
      const done = await turnOffTwoFactor(request, input.password);
      if (!done.ok) return refuse(400, { fieldErrors: { password: done.error } });
      throw redirect("/account", { headers: done.headers });
    }
    case "new-recovery-codes": {
      const done = await replaceRecoveryCodes(request, input.password);
      if (!done.ok) return refuse(400, { fieldErrors: { password: done.error } });
      return data({ recoveryCodes: done.recoveryCodes });
    }
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const form = useCheckedForm(accountSchema, actionData);
  const navigation = useNavigation();
  const sending =
    navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const { twoFactorEnabled } = loaderData;
  const recoveryCodes =
    (actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : undefined) ??
    loaderData.recoveryCodes;
  return (
    <PageShell title="Account">
      <p className="text-slate-600">Signed in as {loaderData.email}</p>
      {/* A refused form's message replaces the last form's notice. */}
      <Notice notice={actionData ? null : loaderData.notice} />
      <NameForm
        name={loaderData.name}
        errors={form.errors}
        sending={sending}
        onSubmit={form.onSubmit}
      />
      <EmailForm
        email={loaderData.email}
        errors={form.errors}
        sending={sending}
        onSubmit={form.onSubmit}
      />
      <PasswordForm errors={form.errors} sending={sending} onSubmit={form.onSubmit} />
      <PurchasesList purchases={loaderData.purchases} />
      <ProductDownloads groups={loaderData.downloads} />
      <TwoFactorSettings
        enabled={twoFactorEnabled}
        recoveryCodes={recoveryCodes}
        setup={actionData && "setup" in actionData ? actionData.setup : undefined}
        answer={actionData}
        {...form}
      />
      <YourData />
      <DeleteAccountForm
        isAdmin={loaderData.isAdmin}
        errors={form.errors}
        sending={sending}
        onSubmit={form.onSubmit}
      />
    </PageShell>
  );
}
