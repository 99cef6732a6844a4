import { describe, expect, it } from "vitest";
import {
  installedReactRouter,
  requireWrittenForVersion,
  writtenForReactRouter,
} from "./server-build";

describe("the test server build", () => {
  it("is written for the react-router the project installs", () => {
    expect(installedReactRouter()).toBe(writtenForReactRouter);
    expect(() => requireWrittenForVersion(installedReactRouter())).not.toThrow();
  });

  it("refuses another version, naming both", () => {
    expect(() => requireWrittenForVersion("7.99.0")).toThrow(
      new RegExp(`React Router ${writtenForReactRouter}.*but 7\\.99\\.0 is installed`),
    );
  });
});
