import { Link } from "react-router";
import { LegalPage } from "~/components/marketing/legal-page";
import { useOffer } from "~/components/marketing/use-offer";
import { site } from "~/config/site";
import { pageMetaFor } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/privacy-policy";

export const loader = offerLoader;

/** Visitors get the text and the cookie banner's island, not React Router's client. */
export const handle: RouteHandle = { hydrate: "islands" };

export const meta: Route.MetaFunction = () => pageMetaFor("/privacy-policy");

export default function PrivacyPolicy() {
  const { brand, canonicalOrigin } = site;
  const { supportEmail } = useOffer();
  const mail = <a href={`mailto:${supportEmail}`}>{supportEmail}</a>;
  return (
    <LegalPage title="Privacy Policy">
      <p>
        This policy explains what personal data {brand} (“we”, “us”) collects when you visit{" "}
        {canonicalOrigin.replace("https://", "")}, buy Lifetime Access to our course and use the
        members’ area, why we collect it, who we share it with and the rights you have. We are the
        controller of this data. If anything here is unclear, e-mail us at {mail}.
      </p>

      <h2>1. Data we collect</h2>
      <h3>Account data</h3>
      <p>
        When you create an account we store your name, e-mail address and a securely hashed version
        of your password (we never store the password itself). If you turn on two-factor
        authentication we store the secret your authenticator app uses and your backup codes.
      </p>
      <h3>Purchase data</h3>
      <p>
        When you buy, we record what you bought, the amount, the date, the payment provider and its
        reference for the order, and whether the order was refunded. We do not receive or store your
        full card number: card details go straight to the payment provider.
      </p>
      <h3>Usage and technical data</h3>
      <p>
        Our servers record the IP address, browser type, pages requested and the time of each
        request, to keep the service secure (for example, to limit repeated sign-in attempts) and to
        fix problems. We also remember where you are in a course so you can pick up where you left
        off.
      </p>
      <h3>Messages</h3>
      <p>
        If you e-mail us, we keep the conversation so that we can answer you and deal with any
        follow-up, such as a refund request.
      </p>

      <h2>2. How we use your data and our legal bases</h2>
      <ul>
        <li>
          <strong>To provide the course and tools you bought</strong>: your account, access to the
          members’ area, and the e-mails that deliver your login details (performance of our
          contract with you).
        </li>
        <li>
          <strong>To take payment and keep records</strong>: processing orders, refunds and the
          bookkeeping tax law requires (contract and legal obligation).
        </li>
        <li>
          <strong>To keep the service secure and working</strong>: preventing fraud and abuse,
          limiting sign-in attempts and fixing errors (our legitimate interests).
        </li>
        <li>
          <strong>To credit affiliates</strong>: when you arrive through a partner’s link, recording
          which partner referred you so they are paid their commission (legitimate interests, and
          your consent where a marketing cookie is involved).
        </li>
        <li>
          <strong>To send you product news</strong>: only if you have agreed, and you can
          unsubscribe at any time with the link in every such e-mail (consent).
        </li>
      </ul>
      <p>
        We do not sell your personal data, and we do not make decisions about you by automated means
        alone.
      </p>

      <h2>3. Payments and the affiliate marketplace</h2>
      <p>
        You can buy Lifetime Access in two ways. In our own checkout, payment is handled by our card
        payment provider, Stripe, which processes your card details under its own privacy policy. On
        our sales pages you can also buy through an external affiliate marketplace, WarriorPlus,
        which processes your order and payment details as a separate controller under its own
        privacy policy and tells us about the purchase (your name, e-mail address and order
        reference) so that we can give you access.
      </p>

      <h2>4. Who we share data with</h2>
      <p>We share personal data only with service providers that help us run {brand}:</p>
      <ul>
        <li>payment providers (Stripe; WarriorPlus for marketplace orders);</li>
        <li>our hosting and database providers, which store the service’s data;</li>
        <li>our e-mail delivery provider, which sends account and purchase e-mails;</li>
        <li>
          affiliates, who learn that a referred sale happened and its commission, but not your
          payment details.
        </li>
      </ul>
      <p>
        Each provider may use the data only to provide its service to us. We may also disclose data
        where the law requires it, or to protect our rights in a dispute.
      </p>

      <h2>5. International transfers</h2>
      <p>
        Some providers process data outside the European Economic Area and the United Kingdom, in
        particular in the United States. Where they do, we rely on an adequacy decision (such as the
        EU-US Data Privacy Framework) or the European Commission’s standard contractual clauses.
      </p>

      <h2>6. Cookies</h2>
      <p>
        A cookie banner asks for your choice on your first visit: <strong>Accept All</strong>,{" "}
        <strong>Essential Only</strong> or <strong>Decline</strong>. Closing the banner counts as
        Essential Only. We keep your choice for 2 years in a cookie, and you can change it at any
        time by deleting our cookies in your browser, after which the banner asks again.
      </p>
      <ul>
        <li>
          <strong>Essential cookies</strong> keep you signed in, protect forms against forgery and
          remember your cookie choice. They are always on because the site cannot work without them.
        </li>
        <li>
          <strong>Analytical cookies</strong> count visits and show which pages help people. They
          are set only if you accept all cookies.
        </li>
        <li>
          <strong>Functional cookies</strong> remember preferences to make the site easier to use.
          They are set only if you accept all cookies.
        </li>
        <li>
          <strong>Marketing cookies</strong> record which partner or campaign brought you to us, so
          affiliates are credited. They are set only if you accept all cookies.
        </li>
      </ul>
      <p>
        Nothing optional is set before you choose. If you choose Decline or Essential Only we also
        remove analytics cookies (those named _ga, _gid or _gat) that are already in your browser.
      </p>

      <h2>7. How long we keep data</h2>
      <ul>
        <li>Account data: for as long as your account exists; we delete it when you ask us to.</li>
        <li>
          Purchase records: for as long as tax and accounting law requires (usually up to 10 years),
          even after an account is deleted.
        </li>
        <li>Server logs: up to 30 days, unless needed to investigate an attack or abuse.</li>
        <li>Support e-mails: up to 3 years after the conversation ends.</li>
      </ul>

      <h2>8. Your rights under the GDPR</h2>
      <p>If you are in the European Economic Area or the United Kingdom, you have the right to:</p>
      <ul>
        <li>access the personal data we hold about you and receive a copy;</li>
        <li>have inaccurate data corrected;</li>
        <li>have your data erased, where we no longer need to keep it;</li>
        <li>restrict or object to processing based on our legitimate interests;</li>
        <li>receive the data you gave us in a portable, machine-readable format;</li>
        <li>withdraw consent at any time, without affecting processing that happened before.</li>
      </ul>
      <p>
        To make a request, e-mail {mail} from the address on your account. We answer every request
        within one month of receiving it; if a request is complex we may extend this by up to two
        further months, and we will tell you why within the first month. We may ask you to confirm
        your identity first. You also have the right to complain to the data protection authority
        where you live or work.
      </p>

      <h2>9. Security</h2>
      <p>
        Connections to the site are encrypted, passwords are stored only as strong hashes, sessions
        can be ended everywhere by signing out, and access to our systems is limited to the people
        who need it. No system is perfectly secure; if a breach affects your data we will tell you
        and the authorities as the law requires.
      </p>

      <h2>10. Children</h2>
      <p>
        {brand} is meant for adults. We do not knowingly collect data from anyone under 16; if you
        believe a child has given us personal data, contact us and we will delete it.
      </p>

      <h2>11. Changes to this policy</h2>
      <p>
        When we change this policy we update the date at the top of this page, and for significant
        changes we e-mail members before the change takes effect.
      </p>

      <h2>12. Contact</h2>
      <p>
        Questions about privacy or this policy: {mail}. See also our{" "}
        <Link to="/terms-of-service">Terms of Service</Link>.
      </p>
    </LegalPage>
  );
}
