import { describe, expect, it } from "vitest";
import { checkLinkAddress } from "./link-address";

describe("a chapter link's address", () => {
  it.each([
    "https://example.com/page?q=1",
    "http://example.com",
    "mailto:help@example.com",
    "tel:+15551234567",
    "  https://example.com  ",
  ])("accepts %s", (value) => {
    expect(checkLinkAddress(value)).toBe(value.trim());
  });

  it.each([
    "",
    "   ",
    "example.com",
    "javascript:alert(1)",
    "data:text/html,hi",
    "ftp://example.com",
    "https://",
    "mailto:",
    "the selected words",
  ])("refuses %j", (value) => {
    expect(checkLinkAddress(value)).toBeNull();
  });
});
