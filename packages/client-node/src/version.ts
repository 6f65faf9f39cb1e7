/** The version of this client, sent in the User-Agent; it moves with the contract's major version. */
export const CLIENT_VERSION = '1.0.0';
