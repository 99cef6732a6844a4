import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.server";

describe("clientAddress", () => {
  const at = (ip: string) => new Request("http://x/", { headers: { "x-client-ip": ip } });
  it("keys IPv4 as is, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(clientAddress(at("203.0.113.9"))).toBe("203.0.113.9");
    expect(clientAddress(at("::ffff:203.0.113.9"))).toBe("203.0.113.9");
    expect(clientAddress(at("2001:db8:1:2:aaaa::1"))).toBe("2001:db8:1:2::/64");
    expect(clientAddress(at("2001:0db8:0001:0002:ffff:0:0:9"))).toBe("2001:db8:1:2::/64");
    expect(clientAddress(at("2001:db8::1"))).toBe("2001:db8:0:0::/64");
    expect(clientAddress(new Request("http://x/"))).toBe("unknown");
  });
});

// Redis runs on this machine and on CI's; REDIS_URL is not needed for these tests.
