/** SSN and document locator number after encryption: the only form in which they are stored. */
export interface SealedPersonalData {
  keyId: string;
  ssnBlindIndex: Uint8Array;
  ssnCiphertext: Uint8Array;
  documentLocatorNumberCiphertext: Uint8Array;
}

export interface PersonalDataProtector {
  seal(
    binding: { environment: string; customerId: string },
    data: { socialSecurityNumber: string; documentLocatorNumber: number },
  ): SealedPersonalData;
  /**
   * Keyed digest (HMAC) of a request that may contain personal data, for idempotency fingerprints:
   * a plain hash of a body holding an SSN could be reversed by trying every SSN.
   */
  fingerprint(material: string): Uint8Array;
  /** The HMAC blind index of a normalised SSN in an environment: how a search finds it without decrypting. */
  blindIndex(environment: string, normalisedSsn: string): Uint8Array;
}
