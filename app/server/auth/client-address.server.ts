import { isIPv4 } from "node:net";

/**
 * The client address server.ts put in the request (never the client's own
 * claim), as a rate-limit key: IPv6 addresses by their /64, which one
 * subscriber usually holds whole.
 */
export function clientAddress(request: Request): string {
  const address = request.headers.get("x-client-ip") ?? "unknown";
  if (address.startsWith("::ffff:") && isIPv4(address.slice(7))) return address.slice(7);
  if (!address.includes(":")) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

function expandIPv6(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array(Math.max(0, missing)).fill("0"), ...right].map((h) =>
    h.toLowerCase().replace(/^0+(?=.)/, ""),
  );
}
