import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Public pages. What the HTTP shell does by URL (prerendering, page cache, body limits,
  // Origin check, POST-only) is declared per route in app/route-policies.ts.
  index("routes/marketing/home.tsx"),
  route("ailabs-offer", "routes/marketing/ailabs-offer.tsx"),
  route("ailabs-offer2", "routes/marketing/ailabs-offer2.tsx"),
  route("white-label-upsell", "routes/marketing/white-label-upsell.tsx"),
  route("custom-saas-upsell", "routes/marketing/custom-saas-upsell.tsx"),
  route("custom-saas-thank-you", "routes/marketing/custom-saas-thank-you.tsx"),
  route("privacy-policy", "routes/marketing/privacy-policy.tsx"),
  route("terms-of-service", "routes/marketing/terms-of-service.tsx"),
  route("upgrades", "routes/marketing/upgrades.tsx"),
  route("jv-affiliate", "routes/marketing/jv-affiliate.tsx"),
  route("jv-doc", "routes/marketing/jv-doc.tsx"),
  route("demo-swipes", "routes/marketing/demo-swipes.tsx"),

  // Accounts and checkout
  route("login", "routes/auth/login.tsx"),
  route("login/two-factor", "routes/auth/login-two-factor.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("forgot-password", "routes/auth/forgot-password.tsx"),
  route("cookie-consent", "routes/cookie-consent.ts"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("buy/:offer", "routes/checkout/buy.ts"),
  route("payment-options", "routes/checkout/payment-options.tsx"),
  route("checkout/test/:checkoutId", "routes/checkout/test-checkout.tsx"),
  route("success", "routes/checkout/success.tsx"),
  route("cancel", "routes/checkout/cancel.tsx"),
  route("email/preferences", "routes/email/preferences.tsx"),
  route("email/unsubscribe", "routes/email/unsubscribe.ts"),

  // Members
  route("dashboard", "routes/members/dashboard.tsx"),
  route("course/:courseId", "routes/members/course.tsx"),
  route("app-builder", "routes/members/app-builder.tsx"),
  route("bolt-prompt", "routes/members/bolt-prompt.tsx"),
  route("app-idea-generator", "routes/members/app-idea-generator.tsx"),
  route("bonuses", "routes/members/bonuses.tsx"),
  route("account", "routes/members/account.tsx"),
  route("account/receipts/:orderNumber", "routes/members/receipt.tsx"),
  route("account/confirm-email", "routes/members/confirm-email.tsx"),
  route("account/data", "routes/members/account-data.ts"),
  route("coaching", "routes/members/coaching.tsx"),
  route("white-label/download/:file", "routes/members/white-label-download.ts"),
  route("coaching/vision/:purchaseId", "routes/members/coaching-vision.ts"),
  route("files/:fileId", "routes/members/product-file.ts"),

  // Admins: the owner's console, under one navigation
  layout("routes/admin/layout.tsx", [
    route("admin", "routes/admin/dashboard.tsx"),
    route("admin/courses", "routes/admin/courses.tsx"),
    route("admin/members", "routes/admin/members.tsx"),
    route("admin/members/:userId", "routes/admin/member.tsx"),
    route("admin/sales", "routes/admin/sales.tsx"),
    route("admin/learning", "routes/admin/learning.tsx"),
    route("admin/funnel", "routes/admin/funnel.tsx"),
    route("admin/products", "routes/admin/products.tsx"),
    route("admin/applications", "routes/admin/applications.tsx"),
    route("admin/email", "routes/admin/email.tsx"),
    route("admin/settings", "routes/admin/settings.tsx"),
    route("admin/audit", "routes/admin/audit.tsx"),
  ]),
  route("admin/members.csv", "routes/admin/members-csv.ts"),
  route("admin/sales.csv", "routes/admin/sales-csv.ts"),

  // Resource routes
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("api/uploads", "routes/api/uploads.ts"),
  route("uploads/:name", "routes/api/upload-file.ts"),
  route("bonuses/download/:file", "routes/api/bonus-download.ts"),
  route("api/webhooks/stripe", "routes/api/webhooks/stripe.ts"),
  route("api/webhooks/warriorplus", "routes/api/webhooks/warriorplus.ts"),

  // Any other path goes home.
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
