"use strict";
// @malachite/testcontainers: Malachite's image as a Testcontainers module. MalachiteContainer
// starts the image it is given (as @testcontainers/azurite's AzuriteContainer, the image is
// required) with port 10002 exposed and waits for /-/ready;
// the started container hands out the connection string of devstoreaccount1 and makes accounts
// and resets through the mapped port with @malachite/client (as a client that is not on the
// container's loopback, with devstoreaccount1's key as its bearer token).
const { AbstractStartedContainer, GenericContainer, Wait } = require("testcontainers");
const { DEV_ACCOUNT, DEV_KEY, MalachiteAdminClient, MalachiteAdminError, connectionStringFor } = require("@malachite/client");

const kTablePort = 10002;
const kSeedDir = "/seed";

class MalachiteContainer extends GenericContainer {
  #inMemory = false;
  #seed = undefined;
  #args = [];

  /** image: the full name with its tag, e.g. "ghcr.io/<owner>/malachite:0.1.0" (a release's image). */
  constructor(image) {
    if (typeof image !== "string" || image.trim() === "") {
      throw new TypeError(
        "new MalachiteContainer(image): the image is required, with its tag, e.g. " +
          'new MalachiteContainer("ghcr.io/<owner>/malachite:<version>") (a release\'s image)',
      );
    }
    super(image);
    this.withExposedPorts(kTablePort)
      .withWaitStrategy(Wait.forHttp("/-/ready", kTablePort).forStatusCode(200))
      .withStartupTimeout(60_000);
  }

  /** Data in memory (/dev/shm of the container: 64 MB unless withSharedMemorySize) instead of /data. */
  withInMemory() {
    this.#inMemory = true;
    return this;
  }

  /** Fixtures: the files of hostDir (<table>.jsonl/.csv, <account>/<table>.jsonl) are copied to /seed and loaded at start; reset() writes them again. */
  withSeed(hostDir) {
    if (typeof hostDir !== "string" || hostDir === "") throw new TypeError("withSeed(hostDir): a directory path");
    this.#seed = hostDir;
    return this;
  }

  /** Extra malachite flags, e.g. ["--throttling", "off"] (see malachite --help). */
  withArgs(args) {
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
      throw new TypeError("withArgs(args): an array of strings");
    }
    this.#args.push(...args);
    return this;
  }

  async start() {
    const command = [];
    if (this.#inMemory) command.push("--in-memory");
    if (this.#seed !== undefined) {
      this.withCopyDirectoriesToContainer([{ source: this.#seed, target: kSeedDir }]);
      command.push("--seed", kSeedDir);
    }
    this.withCommand([...command, ...this.#args]);
    return new StartedMalachiteContainer(await super.start());
  }
}

class StartedMalachiteContainer extends AbstractStartedContainer {
  #admin;

  constructor(started) {
    super(started);
    this.#admin = new MalachiteAdminClient({ host: this.getHost(), port: this.getPort(), bearer: DEV_KEY });
  }

  /** The host port mapped to the container's 10002. */
  getPort() {
    return this.getMappedPort(kTablePort);
  }

  getAccountName() {
    return DEV_ACCOUNT;
  }

  getAccountKey() {
    return DEV_KEY;
  }

  /** http://<host>:<mapped port>/devstoreaccount1 */
  getTableUrl() {
    return `http://${this.getHost()}:${this.getPort()}/${DEV_ACCOUNT}`;
  }

  /** devstoreaccount1's connection string through the mapped port. */
  getConnectionString() {
    return connectionStringFor(DEV_ACCOUNT, DEV_KEY, this.getTableUrl());
  }

  reset(options) {
    return this.#admin.reset(options);
  }

  createAccount(options) {
    return this.#admin.createAccount(options);
  }

  deleteAccount(name) {
    return this.#admin.deleteAccount(name);
  }

  listAccounts() {
    return this.#admin.listAccounts();
  }
}

exports.MalachiteContainer = MalachiteContainer;
exports.StartedMalachiteContainer = StartedMalachiteContainer;
exports.MalachiteAdminError = MalachiteAdminError;
