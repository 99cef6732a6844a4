import { Link } from "react-router";
import { LegalPage } from "~/components/marketing/legal-page";
import { useOffer } from "~/components/marketing/use-offer";
import { site } from "~/config/site";
import { pageMetaFor } from "~/lib/seo";
import type { RouteHandle } from "~/root";
import { offerLoader } from "~/server/settings/offer-settings.server";
import type { Route } from "./+types/terms-of-service";

export const loader = offerLoader;

/** Visitors get the text and the cookie banner's island, not React Router's client. */
export const handle: RouteHandle = { hydrate: "islands" };

export const meta: Route.MetaFunction = () => pageMetaFor("/terms-of-service");

export default function TermsOfService() {
  const { brand } = site;
  const { supportEmail } = useOffer();
  const mail = <a href={`mailto:${supportEmail}`}>{supportEmail}</a>;
  return (
    <LegalPage title="Terms of Service">
      <p>
        These terms are the agreement between you and {brand} (“we”, “us”) for buying and using{" "}
        {brand}: the public website, the course on building, launching and earning from AI
        software-as-a-service apps, and the members’ tools that come with it. By creating an account
        or buying, you accept these terms. If you do not agree, please do not use the service.
      </p>

      <h2>1. What you buy</h2>
      <p>
        {brand} sells one plan, <strong>Lifetime Access</strong>, for a single payment. It includes
        the full course and training, the software boilerplate templates, the business idea
        generator, the app builder page, the bonuses described on the sales page at the time you
        buy, and future updates to the course. “Lifetime” means for as long as we operate the
        service; if we ever close it, we will give members at least 60 days’ notice to download
        their bonus files.
      </p>
      <p>
        We may also offer optional upgrades, such as a white-label package or a custom app build
        with coaching. Each upgrade is described on its own page, and these terms apply to it too,
        along with anything stated there.
      </p>

      <h2>2. Your account</h2>
      <ul>
        <li>You must be at least 18 and give accurate details when you sign up.</li>
        <li>
          Your access is for you alone: do not share your login or resell access to the course.
        </li>
        <li>
          Keep your password safe and tell us at {mail} if you think someone else has used your
          account. You are responsible for what happens under your account.
        </li>
        <li>
          We send your login details by e-mail, usually within about 5 minutes of purchase. If they
          do not arrive, check your spam folder, then contact us.
        </li>
      </ul>

      <h2>3. Prices and payment</h2>
      <p>
        Prices are shown in US dollars on the page where you buy and are charged once; there is no
        subscription. You can pay in our own checkout, where our card payment provider processes the
        payment, or through an external affiliate marketplace linked from our sales pages, whose own
        terms also apply to that purchase. Launch prices and coupons are for a limited time and may
        change; the price you pay is the one shown at checkout.
      </p>

      <h2>4. 30-day money-back guarantee</h2>
      <p>
        If you are not satisfied, e-mail {mail} within 30 days of your purchase, from the address on
        your account or with your order number, and we will refund you in full. No questions asked.
        Refunds go back to the original payment method, normally within 5-10 business days depending
        on your bank. When a refund is made, access to the members’ area and bonuses ends. Purchases
        made through the affiliate marketplace are refunded through that marketplace.
      </p>

      <h2>5. Using the course and tools</h2>
      <p>
        You may use what you learn and the templates you download to build your own apps, including
        apps you sell. You may not:
      </p>
      <ul>
        <li>copy, republish or resell the course videos, text or materials themselves;</li>
        <li>
          resell the boilerplate templates as templates (building a product with them is fine);
        </li>
        <li>
          try to break, overload or get around the security of the service, or access other members’
          data;
        </li>
        <li>use the service to build anything unlawful, deceptive or harmful.</li>
      </ul>
      <p>
        We may suspend or close an account that breaks these rules. If we do so without a serious
        breach on your part, we will refund a fair share of what you paid.
      </p>

      <h2>6. Third-party services</h2>
      <p>
        Building your app will involve services we do not run, such as AI model providers, app
        builders, hosting and payment platforms. Their own terms and prices apply, and we are not
        responsible for their availability or changes.
      </p>

      <h2>7. Affiliates</h2>
      <p>
        Independent partners may promote {brand} and earn a commission on sales they refer. They are
        not our employees or agents, and any promise they make beyond what our own pages say is
        theirs, not ours.
      </p>

      <h2>8. Earnings disclaimer</h2>
      <p>
        We teach methods that have worked for others, and our pages mention examples such as a 7-day
        launch and a 23% free-to-paid conversion rate. These are examples, not promises. We do not
        guarantee that you will earn any money. Your results depend on your idea, effort, skills,
        market and many other factors outside our control, and many people who buy a course earn
        nothing from it. Nothing in the course is financial, legal or tax advice.
      </p>

      <h2>9. Intellectual property</h2>
      <p>
        The course, the website and their content belong to {brand} or its licensors and are
        protected by copyright. Buying Lifetime Access gives you a personal, non-transferable
        licence to use them as these terms describe. The apps you build are yours.
      </p>

      <h2>10. Availability and changes to the course</h2>
      <p>
        We work to keep the service available but cannot promise it will never be interrupted. We
        update the course over time and may reorganise, replace or retire lessons and tools, while
        keeping the overall value of what you bought.
      </p>

      <h2>11. Liability</h2>
      <p>
        To the extent the law allows, we are not liable for indirect or consequential losses, such
        as lost profits or business opportunities, and our total liability to you is limited to the
        amount you paid us. Nothing in these terms limits liability that cannot be limited by law,
        or your statutory rights as a consumer.
      </p>

      <h2>12. Privacy</h2>
      <p>
        How we handle your personal data and cookies is described in our{" "}
        <Link to="/privacy-policy">Privacy Policy</Link>.
      </p>

      <h2>13. Changes to these terms</h2>
      <p>
        We may update these terms; the date at the top of this page shows the latest version. For
        significant changes we e-mail members before they take effect. The terms that applied when
        you bought continue to govern that purchase.
      </p>

      <h2>14. Contact</h2>
      <p>Questions about these terms, refunds or your account: {mail}.</p>
    </LegalPage>
  );
}
