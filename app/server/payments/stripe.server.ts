import Stripe from "stripe";

import type { StripeConfig } from "../env.server";

export type { StripeConfig };

const clients = new WeakMap<StripeConfig, Stripe>();

/** The SDK client for this config, made once per config object. */
export function stripeClient(config: StripeConfig): Stripe {
  let client = clients.get(config);
  if (!client) {
    client = new Stripe(config.secretKey, standInOptions(config.apiUrl));
    clients.set(config, client);
  }
  return client;
}

function standInOptions(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return {
    host: url.hostname,
    port: url.port || (protocol === "http" ? 80 : 443),
    protocol,
    maxNetworkRetries: 0,
  };
}

/**
 * Log fields for an error on a Stripe path. An SDK error is reduced to its
 * type, code, status and request id: its message can quote customer data.
 */
export function stripeErrorLog(error: unknown): Record<string, unknown> {
  if (error instanceof Stripe.errors.StripeError) {
    return {
      stripe: {
        type: error.type,
        code: error.code,
        statusCode: error.statusCode,
        requestId: error.requestId,
      },
    };
  }
  return { err: error };
}
