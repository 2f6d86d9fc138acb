/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Viewer {\n    viewer {\n      scopes\n      environments\n    }\n  }\n": typeof types.ViewerDocument,
    "\n  query CustomerRecentEvents($customerId: ID!) {\n    customer(customerId: $customerId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n": typeof types.CustomerRecentEventsDocument,
    "\n  query AccountRecentEvents($accountId: ID!) {\n    account(accountId: $accountId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n": typeof types.AccountRecentEventsDocument,
    "\n  fragment RecentEventRow on Event {\n    eventId\n    sequence\n    type\n    occurredAt\n  }\n": typeof types.RecentEventRowFragmentDoc,
    "\n  query AccountSummary($accountId: ID!, $withHolders: Boolean!) {\n    account(accountId: $accountId) {\n      id\n      accountId\n      name\n      type\n      currency\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n      overdraftLimit\n      version\n      metadata\n      balance {\n        posted\n        pending\n        available\n      }\n      relationships @include(if: $withHolders) {\n        customerId\n        role\n        customer {\n          id\n          customerId\n          customerType\n          business {\n            legalName\n          }\n          firstName\n          middleName\n          lastName\n        }\n      }\n    }\n  }\n": typeof types.AccountSummaryDocument,
    "\n  mutation UpdateAccountMetadata($accountId: ID!, $input: UpdateAccountInput!, $expectedVersion: Int) {\n    updateAccount(accountId: $accountId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      name\n      currency\n      metadata\n    }\n  }\n": typeof types.UpdateAccountMetadataDocument,
    "\n  mutation DeleteAccount($accountId: ID!, $expectedVersion: Int) {\n    deleteAccount(accountId: $accountId, expectedVersion: $expectedVersion)\n  }\n": typeof types.DeleteAccountDocument,
    "\n  query AccountBalanceHistory($accountId: ID!, $from: String!, $to: String!) {\n    account(accountId: $accountId) {\n      id\n      balanceHistory(from: $from, to: $to, interval: DAY) {\n        at\n        posted\n      }\n    }\n  }\n": typeof types.AccountBalanceHistoryDocument,
    "\n  mutation AddAccountHolder($accountId: ID!, $customerId: ID!, $role: AccountRole) {\n    addAccountCustomer(accountId: $accountId, customerId: $customerId, role: $role) {\n      id\n      customerIds\n    }\n  }\n": typeof types.AddAccountHolderDocument,
    "\n  mutation SetAccountRelationship($accountId: ID!, $customerId: ID!, $role: AccountRole!, $expectedVersion: Int) {\n    setAccountRelationship(\n      accountId: $accountId\n      customerId: $customerId\n      role: $role\n      expectedVersion: $expectedVersion\n    ) {\n      id\n      version\n      relationships {\n        customerId\n        role\n      }\n    }\n  }\n": typeof types.SetAccountRelationshipDocument,
    "\n  mutation RemoveAccountHolder($accountId: ID!, $customerId: ID!) {\n    removeAccountCustomer(accountId: $accountId, customerId: $customerId) {\n      id\n      customerIds\n    }\n  }\n": typeof types.RemoveAccountHolderDocument,
    "\n  query AccountTransactions($accountId: ID!, $after: String, $filter: TransactionFilter) {\n    account(accountId: $accountId) {\n      id\n      transactions(first: 10, after: $after, filter: $filter) {\n        nodes {\n          transactionId\n          type\n          status\n          amount\n          currency\n          description\n          balanceAfter\n          createdAt\n          transferId\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.AccountTransactionsDocument,
    "\n  mutation SetAccountFlag($accountId: ID!, $flag: AccountFlag!, $reason: String, $until: String) {\n    setAccountFlag(accountId: $accountId, flag: $flag, reason: $reason, until: $until) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n": typeof types.SetAccountFlagDocument,
    "\n  mutation ClearAccountFlag($accountId: ID!, $flag: AccountFlag!) {\n    clearAccountFlag(accountId: $accountId, flag: $flag) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n": typeof types.ClearAccountFlagDocument,
    "\n  mutation TransferMoney($input: TransferInput!, $idempotencyKey: String) {\n    transfer(input: $input, idempotencyKey: $idempotencyKey) {\n      transferId\n      amount\n      currency\n    }\n  }\n": typeof types.TransferMoneyDocument,
    "\n  mutation PostHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    postHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n": typeof types.PostHoldDocument,
    "\n  mutation VoidHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    voidHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n": typeof types.VoidHoldDocument,
    "\n  mutation SetOverdraftLimit($accountId: ID!, $overdraftLimit: Decimal!) {\n    setOverdraftLimit(accountId: $accountId, overdraftLimit: $overdraftLimit) {\n      id\n      overdraftLimit\n      balance {\n        posted\n        pending\n        available\n      }\n    }\n  }\n": typeof types.SetOverdraftLimitDocument,
    "\n  query AuditTrail(\n    $after: String\n    $resourceId: ID\n    $principalId: String\n    $operation: String\n    $from: String\n    $to: String\n  ) {\n    auditEvents(\n      first: 20\n      after: $after\n      resourceId: $resourceId\n      principalId: $principalId\n      operation: $operation\n      from: $from\n      to: $to\n    ) {\n      nodes {\n        eventId\n        occurredAt\n        principalId\n        operation\n        resourceType\n        resourceId\n        changedFields\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.AuditTrailDocument,
    "\n  query CustomerDetails($customerId: ID!, $withAccounts: Boolean!) {\n    customer(customerId: $customerId) {\n      id\n      customerId\n      customerType\n      business {\n        legalName\n        doingBusinessAs\n        entityType\n        formationDate\n        formationState\n        formationCountry\n        industry\n        website\n      }\n      preferredName\n      firstName\n      middleName\n      lastName\n      dateOfBirth\n      version\n      metadata\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n      accounts @include(if: $withAccounts) {\n        id\n        accountId\n        name\n        type\n        currency\n        amount\n        flags\n      }\n    }\n  }\n": typeof types.CustomerDetailsDocument,
    "\n  mutation UpdateCustomerContact($customerId: ID!, $input: UpdateCustomerInput!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      preferredName\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n    }\n  }\n": typeof types.UpdateCustomerContactDocument,
    "\n  mutation UpdateCustomerMetadata($customerId: ID!, $metadata: Metadata!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: { metadata: $metadata }, expectedVersion: $expectedVersion) {\n      id\n      version\n      metadata\n    }\n  }\n": typeof types.UpdateCustomerMetadataDocument,
    "\n  mutation DeleteCustomer($customerId: ID!, $expectedVersion: Int) {\n    deleteCustomer(customerId: $customerId, expectedVersion: $expectedVersion)\n  }\n": typeof types.DeleteCustomerDocument,
    "\n  fragment CustomerListItem on Customer {\n    id\n    customerId\n    customerType\n    business {\n      legalName\n      doingBusinessAs\n    }\n    firstName\n    middleName\n    lastName\n    dateOfBirth\n  }\n": typeof types.CustomerListItemFragmentDoc,
    "\n  query FindCustomers($filter: CustomerFilter, $after: String) {\n    customers(first: 20, after: $after, filter: $filter) {\n      nodes {\n        ...CustomerListItem\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.FindCustomersDocument,
    "\n  query SearchCustomersBySsn($input: CustomerSearchInput!) {\n    searchCustomers(input: $input, first: 20) {\n      nodes {\n        ...CustomerListItem\n      }\n    }\n  }\n": typeof types.SearchCustomersBySsnDocument,
    "\n  query EventList($after: SafeInt, $types: [String!]) {\n    events(after: $after, types: $types, first: 20) {\n      events {\n        eventId\n        sequence\n        type\n        occurredAt\n        resourceType\n        resourceId\n        changedFields\n      }\n      nextAfter\n    }\n  }\n": typeof types.EventListDocument,
    "\n  subscription LiveEvents($types: [String!]) {\n    events(types: $types) {\n      eventId\n      sequence\n      type\n      occurredAt\n      resourceType\n      resourceId\n      changedFields\n    }\n  }\n": typeof types.LiveEventsDocument,
    "\n  mutation CreateBusinessCustomer($input: CreateBusinessCustomerInput!, $idempotencyKey: String) {\n    createBusinessCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n": typeof types.CreateBusinessCustomerDocument,
    "\n  mutation CreateCustomer($input: CreateCustomerInput!, $idempotencyKey: String) {\n    createCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n": typeof types.CreateCustomerDocument,
    "\n  query WebhookEndpointList {\n    webhookEndpoints {\n      endpointId\n      url\n      eventTypes\n      enabled\n      disabledReason\n      failingSince\n      createdAt\n    }\n  }\n": typeof types.WebhookEndpointListDocument,
    "\n  mutation EnableWebhookEndpoint($endpointId: ID!) {\n    enableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n": typeof types.EnableWebhookEndpointDocument,
    "\n  mutation DisableWebhookEndpoint($endpointId: ID!) {\n    disableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n": typeof types.DisableWebhookEndpointDocument,
    "\n  mutation RotateWebhookSecret($endpointId: ID!) {\n    rotateWebhookSecret(endpointId: $endpointId) {\n      secret\n      endpoint {\n        endpointId\n        url\n      }\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  query WebhookEndpointDeliveries($endpointId: ID!) {\n    webhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      url\n      enabled\n      attempts(first: 20) {\n        attemptId\n        eventId\n        attemptedAt\n        statusCode\n        latencyMs\n        succeeded\n        error\n      }\n    }\n  }\n": typeof types.WebhookEndpointDeliveriesDocument,
    "\n  mutation RedeliverWebhook($endpointId: ID!, $eventId: ID!) {\n    redeliverWebhook(endpointId: $endpointId, eventId: $eventId) {\n      endpointId\n      eventId\n    }\n  }\n": typeof types.RedeliverWebhookDocument,
};
const documents: Documents = {
    "\n  query Viewer {\n    viewer {\n      scopes\n      environments\n    }\n  }\n": types.ViewerDocument,
    "\n  query CustomerRecentEvents($customerId: ID!) {\n    customer(customerId: $customerId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n": types.CustomerRecentEventsDocument,
    "\n  query AccountRecentEvents($accountId: ID!) {\n    account(accountId: $accountId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n": types.AccountRecentEventsDocument,
    "\n  fragment RecentEventRow on Event {\n    eventId\n    sequence\n    type\n    occurredAt\n  }\n": types.RecentEventRowFragmentDoc,
    "\n  query AccountSummary($accountId: ID!, $withHolders: Boolean!) {\n    account(accountId: $accountId) {\n      id\n      accountId\n      name\n      type\n      currency\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n      overdraftLimit\n      version\n      metadata\n      balance {\n        posted\n        pending\n        available\n      }\n      relationships @include(if: $withHolders) {\n        customerId\n        role\n        customer {\n          id\n          customerId\n          customerType\n          business {\n            legalName\n          }\n          firstName\n          middleName\n          lastName\n        }\n      }\n    }\n  }\n": types.AccountSummaryDocument,
    "\n  mutation UpdateAccountMetadata($accountId: ID!, $input: UpdateAccountInput!, $expectedVersion: Int) {\n    updateAccount(accountId: $accountId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      name\n      currency\n      metadata\n    }\n  }\n": types.UpdateAccountMetadataDocument,
    "\n  mutation DeleteAccount($accountId: ID!, $expectedVersion: Int) {\n    deleteAccount(accountId: $accountId, expectedVersion: $expectedVersion)\n  }\n": types.DeleteAccountDocument,
    "\n  query AccountBalanceHistory($accountId: ID!, $from: String!, $to: String!) {\n    account(accountId: $accountId) {\n      id\n      balanceHistory(from: $from, to: $to, interval: DAY) {\n        at\n        posted\n      }\n    }\n  }\n": types.AccountBalanceHistoryDocument,
    "\n  mutation AddAccountHolder($accountId: ID!, $customerId: ID!, $role: AccountRole) {\n    addAccountCustomer(accountId: $accountId, customerId: $customerId, role: $role) {\n      id\n      customerIds\n    }\n  }\n": types.AddAccountHolderDocument,
    "\n  mutation SetAccountRelationship($accountId: ID!, $customerId: ID!, $role: AccountRole!, $expectedVersion: Int) {\n    setAccountRelationship(\n      accountId: $accountId\n      customerId: $customerId\n      role: $role\n      expectedVersion: $expectedVersion\n    ) {\n      id\n      version\n      relationships {\n        customerId\n        role\n      }\n    }\n  }\n": types.SetAccountRelationshipDocument,
    "\n  mutation RemoveAccountHolder($accountId: ID!, $customerId: ID!) {\n    removeAccountCustomer(accountId: $accountId, customerId: $customerId) {\n      id\n      customerIds\n    }\n  }\n": types.RemoveAccountHolderDocument,
    "\n  query AccountTransactions($accountId: ID!, $after: String, $filter: TransactionFilter) {\n    account(accountId: $accountId) {\n      id\n      transactions(first: 10, after: $after, filter: $filter) {\n        nodes {\n          transactionId\n          type\n          status\n          amount\n          currency\n          description\n          balanceAfter\n          createdAt\n          transferId\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.AccountTransactionsDocument,
    "\n  mutation SetAccountFlag($accountId: ID!, $flag: AccountFlag!, $reason: String, $until: String) {\n    setAccountFlag(accountId: $accountId, flag: $flag, reason: $reason, until: $until) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n": types.SetAccountFlagDocument,
    "\n  mutation ClearAccountFlag($accountId: ID!, $flag: AccountFlag!) {\n    clearAccountFlag(accountId: $accountId, flag: $flag) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n": types.ClearAccountFlagDocument,
    "\n  mutation TransferMoney($input: TransferInput!, $idempotencyKey: String) {\n    transfer(input: $input, idempotencyKey: $idempotencyKey) {\n      transferId\n      amount\n      currency\n    }\n  }\n": types.TransferMoneyDocument,
    "\n  mutation PostHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    postHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n": types.PostHoldDocument,
    "\n  mutation VoidHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    voidHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n": types.VoidHoldDocument,
    "\n  mutation SetOverdraftLimit($accountId: ID!, $overdraftLimit: Decimal!) {\n    setOverdraftLimit(accountId: $accountId, overdraftLimit: $overdraftLimit) {\n      id\n      overdraftLimit\n      balance {\n        posted\n        pending\n        available\n      }\n    }\n  }\n": types.SetOverdraftLimitDocument,
    "\n  query AuditTrail(\n    $after: String\n    $resourceId: ID\n    $principalId: String\n    $operation: String\n    $from: String\n    $to: String\n  ) {\n    auditEvents(\n      first: 20\n      after: $after\n      resourceId: $resourceId\n      principalId: $principalId\n      operation: $operation\n      from: $from\n      to: $to\n    ) {\n      nodes {\n        eventId\n        occurredAt\n        principalId\n        operation\n        resourceType\n        resourceId\n        changedFields\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.AuditTrailDocument,
    "\n  query CustomerDetails($customerId: ID!, $withAccounts: Boolean!) {\n    customer(customerId: $customerId) {\n      id\n      customerId\n      customerType\n      business {\n        legalName\n        doingBusinessAs\n        entityType\n        formationDate\n        formationState\n        formationCountry\n        industry\n        website\n      }\n      preferredName\n      firstName\n      middleName\n      lastName\n      dateOfBirth\n      version\n      metadata\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n      accounts @include(if: $withAccounts) {\n        id\n        accountId\n        name\n        type\n        currency\n        amount\n        flags\n      }\n    }\n  }\n": types.CustomerDetailsDocument,
    "\n  mutation UpdateCustomerContact($customerId: ID!, $input: UpdateCustomerInput!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      preferredName\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n    }\n  }\n": types.UpdateCustomerContactDocument,
    "\n  mutation UpdateCustomerMetadata($customerId: ID!, $metadata: Metadata!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: { metadata: $metadata }, expectedVersion: $expectedVersion) {\n      id\n      version\n      metadata\n    }\n  }\n": types.UpdateCustomerMetadataDocument,
    "\n  mutation DeleteCustomer($customerId: ID!, $expectedVersion: Int) {\n    deleteCustomer(customerId: $customerId, expectedVersion: $expectedVersion)\n  }\n": types.DeleteCustomerDocument,
    "\n  fragment CustomerListItem on Customer {\n    id\n    customerId\n    customerType\n    business {\n      legalName\n      doingBusinessAs\n    }\n    firstName\n    middleName\n    lastName\n    dateOfBirth\n  }\n": types.CustomerListItemFragmentDoc,
    "\n  query FindCustomers($filter: CustomerFilter, $after: String) {\n    customers(first: 20, after: $after, filter: $filter) {\n      nodes {\n        ...CustomerListItem\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.FindCustomersDocument,
    "\n  query SearchCustomersBySsn($input: CustomerSearchInput!) {\n    searchCustomers(input: $input, first: 20) {\n      nodes {\n        ...CustomerListItem\n      }\n    }\n  }\n": types.SearchCustomersBySsnDocument,
    "\n  query EventList($after: SafeInt, $types: [String!]) {\n    events(after: $after, types: $types, first: 20) {\n      events {\n        eventId\n        sequence\n        type\n        occurredAt\n        resourceType\n        resourceId\n        changedFields\n      }\n      nextAfter\n    }\n  }\n": types.EventListDocument,
    "\n  subscription LiveEvents($types: [String!]) {\n    events(types: $types) {\n      eventId\n      sequence\n      type\n      occurredAt\n      resourceType\n      resourceId\n      changedFields\n    }\n  }\n": types.LiveEventsDocument,
    "\n  mutation CreateBusinessCustomer($input: CreateBusinessCustomerInput!, $idempotencyKey: String) {\n    createBusinessCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n": types.CreateBusinessCustomerDocument,
    "\n  mutation CreateCustomer($input: CreateCustomerInput!, $idempotencyKey: String) {\n    createCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n": types.CreateCustomerDocument,
    "\n  query WebhookEndpointList {\n    webhookEndpoints {\n      endpointId\n      url\n      eventTypes\n      enabled\n      disabledReason\n      failingSince\n      createdAt\n    }\n  }\n": types.WebhookEndpointListDocument,
    "\n  mutation EnableWebhookEndpoint($endpointId: ID!) {\n    enableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n": types.EnableWebhookEndpointDocument,
    "\n  mutation DisableWebhookEndpoint($endpointId: ID!) {\n    disableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n": types.DisableWebhookEndpointDocument,
    "\n  mutation RotateWebhookSecret($endpointId: ID!) {\n    rotateWebhookSecret(endpointId: $endpointId) {\n      secret\n      endpoint {\n        endpointId\n        url\n      }\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  query WebhookEndpointDeliveries($endpointId: ID!) {\n    webhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      url\n      enabled\n      attempts(first: 20) {\n        attemptId\n        eventId\n        attemptedAt\n        statusCode\n        latencyMs\n        succeeded\n        error\n      }\n    }\n  }\n": types.WebhookEndpointDeliveriesDocument,
    "\n  mutation RedeliverWebhook($endpointId: ID!, $eventId: ID!) {\n    redeliverWebhook(endpointId: $endpointId, eventId: $eventId) {\n      endpointId\n      eventId\n    }\n  }\n": types.RedeliverWebhookDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Viewer {\n    viewer {\n      scopes\n      environments\n    }\n  }\n"): (typeof documents)["\n  query Viewer {\n    viewer {\n      scopes\n      environments\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerRecentEvents($customerId: ID!) {\n    customer(customerId: $customerId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n"): (typeof documents)["\n  query CustomerRecentEvents($customerId: ID!) {\n    customer(customerId: $customerId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountRecentEvents($accountId: ID!) {\n    account(accountId: $accountId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n"): (typeof documents)["\n  query AccountRecentEvents($accountId: ID!) {\n    account(accountId: $accountId) {\n      id\n      recentEvents(first: 10) {\n        ...RecentEventRow\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RecentEventRow on Event {\n    eventId\n    sequence\n    type\n    occurredAt\n  }\n"): (typeof documents)["\n  fragment RecentEventRow on Event {\n    eventId\n    sequence\n    type\n    occurredAt\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountSummary($accountId: ID!, $withHolders: Boolean!) {\n    account(accountId: $accountId) {\n      id\n      accountId\n      name\n      type\n      currency\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n      overdraftLimit\n      version\n      metadata\n      balance {\n        posted\n        pending\n        available\n      }\n      relationships @include(if: $withHolders) {\n        customerId\n        role\n        customer {\n          id\n          customerId\n          customerType\n          business {\n            legalName\n          }\n          firstName\n          middleName\n          lastName\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AccountSummary($accountId: ID!, $withHolders: Boolean!) {\n    account(accountId: $accountId) {\n      id\n      accountId\n      name\n      type\n      currency\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n      overdraftLimit\n      version\n      metadata\n      balance {\n        posted\n        pending\n        available\n      }\n      relationships @include(if: $withHolders) {\n        customerId\n        role\n        customer {\n          id\n          customerId\n          customerType\n          business {\n            legalName\n          }\n          firstName\n          middleName\n          lastName\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateAccountMetadata($accountId: ID!, $input: UpdateAccountInput!, $expectedVersion: Int) {\n    updateAccount(accountId: $accountId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      name\n      currency\n      metadata\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateAccountMetadata($accountId: ID!, $input: UpdateAccountInput!, $expectedVersion: Int) {\n    updateAccount(accountId: $accountId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      name\n      currency\n      metadata\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteAccount($accountId: ID!, $expectedVersion: Int) {\n    deleteAccount(accountId: $accountId, expectedVersion: $expectedVersion)\n  }\n"): (typeof documents)["\n  mutation DeleteAccount($accountId: ID!, $expectedVersion: Int) {\n    deleteAccount(accountId: $accountId, expectedVersion: $expectedVersion)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountBalanceHistory($accountId: ID!, $from: String!, $to: String!) {\n    account(accountId: $accountId) {\n      id\n      balanceHistory(from: $from, to: $to, interval: DAY) {\n        at\n        posted\n      }\n    }\n  }\n"): (typeof documents)["\n  query AccountBalanceHistory($accountId: ID!, $from: String!, $to: String!) {\n    account(accountId: $accountId) {\n      id\n      balanceHistory(from: $from, to: $to, interval: DAY) {\n        at\n        posted\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddAccountHolder($accountId: ID!, $customerId: ID!, $role: AccountRole) {\n    addAccountCustomer(accountId: $accountId, customerId: $customerId, role: $role) {\n      id\n      customerIds\n    }\n  }\n"): (typeof documents)["\n  mutation AddAccountHolder($accountId: ID!, $customerId: ID!, $role: AccountRole) {\n    addAccountCustomer(accountId: $accountId, customerId: $customerId, role: $role) {\n      id\n      customerIds\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetAccountRelationship($accountId: ID!, $customerId: ID!, $role: AccountRole!, $expectedVersion: Int) {\n    setAccountRelationship(\n      accountId: $accountId\n      customerId: $customerId\n      role: $role\n      expectedVersion: $expectedVersion\n    ) {\n      id\n      version\n      relationships {\n        customerId\n        role\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SetAccountRelationship($accountId: ID!, $customerId: ID!, $role: AccountRole!, $expectedVersion: Int) {\n    setAccountRelationship(\n      accountId: $accountId\n      customerId: $customerId\n      role: $role\n      expectedVersion: $expectedVersion\n    ) {\n      id\n      version\n      relationships {\n        customerId\n        role\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveAccountHolder($accountId: ID!, $customerId: ID!) {\n    removeAccountCustomer(accountId: $accountId, customerId: $customerId) {\n      id\n      customerIds\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveAccountHolder($accountId: ID!, $customerId: ID!) {\n    removeAccountCustomer(accountId: $accountId, customerId: $customerId) {\n      id\n      customerIds\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AccountTransactions($accountId: ID!, $after: String, $filter: TransactionFilter) {\n    account(accountId: $accountId) {\n      id\n      transactions(first: 10, after: $after, filter: $filter) {\n        nodes {\n          transactionId\n          type\n          status\n          amount\n          currency\n          description\n          balanceAfter\n          createdAt\n          transferId\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AccountTransactions($accountId: ID!, $after: String, $filter: TransactionFilter) {\n    account(accountId: $accountId) {\n      id\n      transactions(first: 10, after: $after, filter: $filter) {\n        nodes {\n          transactionId\n          type\n          status\n          amount\n          currency\n          description\n          balanceAfter\n          createdAt\n          transferId\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetAccountFlag($accountId: ID!, $flag: AccountFlag!, $reason: String, $until: String) {\n    setAccountFlag(accountId: $accountId, flag: $flag, reason: $reason, until: $until) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SetAccountFlag($accountId: ID!, $flag: AccountFlag!, $reason: String, $until: String) {\n    setAccountFlag(accountId: $accountId, flag: $flag, reason: $reason, until: $until) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ClearAccountFlag($accountId: ID!, $flag: AccountFlag!) {\n    clearAccountFlag(accountId: $accountId, flag: $flag) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ClearAccountFlag($accountId: ID!, $flag: AccountFlag!) {\n    clearAccountFlag(accountId: $accountId, flag: $flag) {\n      id\n      flags\n      flagDetails {\n        flag\n        reason\n        setAt\n        setBy\n        until\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TransferMoney($input: TransferInput!, $idempotencyKey: String) {\n    transfer(input: $input, idempotencyKey: $idempotencyKey) {\n      transferId\n      amount\n      currency\n    }\n  }\n"): (typeof documents)["\n  mutation TransferMoney($input: TransferInput!, $idempotencyKey: String) {\n    transfer(input: $input, idempotencyKey: $idempotencyKey) {\n      transferId\n      amount\n      currency\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PostHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    postHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation PostHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    postHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation VoidHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    voidHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n"): (typeof documents)["\n  mutation VoidHold($accountId: ID!, $transactionId: ID!, $idempotencyKey: String) {\n    voidHold(accountId: $accountId, transactionId: $transactionId, idempotencyKey: $idempotencyKey) {\n      transactionId\n      status\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetOverdraftLimit($accountId: ID!, $overdraftLimit: Decimal!) {\n    setOverdraftLimit(accountId: $accountId, overdraftLimit: $overdraftLimit) {\n      id\n      overdraftLimit\n      balance {\n        posted\n        pending\n        available\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SetOverdraftLimit($accountId: ID!, $overdraftLimit: Decimal!) {\n    setOverdraftLimit(accountId: $accountId, overdraftLimit: $overdraftLimit) {\n      id\n      overdraftLimit\n      balance {\n        posted\n        pending\n        available\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditTrail(\n    $after: String\n    $resourceId: ID\n    $principalId: String\n    $operation: String\n    $from: String\n    $to: String\n  ) {\n    auditEvents(\n      first: 20\n      after: $after\n      resourceId: $resourceId\n      principalId: $principalId\n      operation: $operation\n      from: $from\n      to: $to\n    ) {\n      nodes {\n        eventId\n        occurredAt\n        principalId\n        operation\n        resourceType\n        resourceId\n        changedFields\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query AuditTrail(\n    $after: String\n    $resourceId: ID\n    $principalId: String\n    $operation: String\n    $from: String\n    $to: String\n  ) {\n    auditEvents(\n      first: 20\n      after: $after\n      resourceId: $resourceId\n      principalId: $principalId\n      operation: $operation\n      from: $from\n      to: $to\n    ) {\n      nodes {\n        eventId\n        occurredAt\n        principalId\n        operation\n        resourceType\n        resourceId\n        changedFields\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query CustomerDetails($customerId: ID!, $withAccounts: Boolean!) {\n    customer(customerId: $customerId) {\n      id\n      customerId\n      customerType\n      business {\n        legalName\n        doingBusinessAs\n        entityType\n        formationDate\n        formationState\n        formationCountry\n        industry\n        website\n      }\n      preferredName\n      firstName\n      middleName\n      lastName\n      dateOfBirth\n      version\n      metadata\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n      accounts @include(if: $withAccounts) {\n        id\n        accountId\n        name\n        type\n        currency\n        amount\n        flags\n      }\n    }\n  }\n"): (typeof documents)["\n  query CustomerDetails($customerId: ID!, $withAccounts: Boolean!) {\n    customer(customerId: $customerId) {\n      id\n      customerId\n      customerType\n      business {\n        legalName\n        doingBusinessAs\n        entityType\n        formationDate\n        formationState\n        formationCountry\n        industry\n        website\n      }\n      preferredName\n      firstName\n      middleName\n      lastName\n      dateOfBirth\n      version\n      metadata\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n      accounts @include(if: $withAccounts) {\n        id\n        accountId\n        name\n        type\n        currency\n        amount\n        flags\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateCustomerContact($customerId: ID!, $input: UpdateCustomerInput!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      preferredName\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateCustomerContact($customerId: ID!, $input: UpdateCustomerInput!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: $input, expectedVersion: $expectedVersion) {\n      id\n      version\n      preferredName\n      emails\n      phoneNumbers {\n        type\n        number\n      }\n      addresses {\n        type\n        street\n        city\n        state\n        zip\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateCustomerMetadata($customerId: ID!, $metadata: Metadata!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: { metadata: $metadata }, expectedVersion: $expectedVersion) {\n      id\n      version\n      metadata\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateCustomerMetadata($customerId: ID!, $metadata: Metadata!, $expectedVersion: Int) {\n    updateCustomer(customerId: $customerId, input: { metadata: $metadata }, expectedVersion: $expectedVersion) {\n      id\n      version\n      metadata\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteCustomer($customerId: ID!, $expectedVersion: Int) {\n    deleteCustomer(customerId: $customerId, expectedVersion: $expectedVersion)\n  }\n"): (typeof documents)["\n  mutation DeleteCustomer($customerId: ID!, $expectedVersion: Int) {\n    deleteCustomer(customerId: $customerId, expectedVersion: $expectedVersion)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CustomerListItem on Customer {\n    id\n    customerId\n    customerType\n    business {\n      legalName\n      doingBusinessAs\n    }\n    firstName\n    middleName\n    lastName\n    dateOfBirth\n  }\n"): (typeof documents)["\n  fragment CustomerListItem on Customer {\n    id\n    customerId\n    customerType\n    business {\n      legalName\n      doingBusinessAs\n    }\n    firstName\n    middleName\n    lastName\n    dateOfBirth\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FindCustomers($filter: CustomerFilter, $after: String) {\n    customers(first: 20, after: $after, filter: $filter) {\n      nodes {\n        ...CustomerListItem\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query FindCustomers($filter: CustomerFilter, $after: String) {\n    customers(first: 20, after: $after, filter: $filter) {\n      nodes {\n        ...CustomerListItem\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchCustomersBySsn($input: CustomerSearchInput!) {\n    searchCustomers(input: $input, first: 20) {\n      nodes {\n        ...CustomerListItem\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchCustomersBySsn($input: CustomerSearchInput!) {\n    searchCustomers(input: $input, first: 20) {\n      nodes {\n        ...CustomerListItem\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query EventList($after: SafeInt, $types: [String!]) {\n    events(after: $after, types: $types, first: 20) {\n      events {\n        eventId\n        sequence\n        type\n        occurredAt\n        resourceType\n        resourceId\n        changedFields\n      }\n      nextAfter\n    }\n  }\n"): (typeof documents)["\n  query EventList($after: SafeInt, $types: [String!]) {\n    events(after: $after, types: $types, first: 20) {\n      events {\n        eventId\n        sequence\n        type\n        occurredAt\n        resourceType\n        resourceId\n        changedFields\n      }\n      nextAfter\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription LiveEvents($types: [String!]) {\n    events(types: $types) {\n      eventId\n      sequence\n      type\n      occurredAt\n      resourceType\n      resourceId\n      changedFields\n    }\n  }\n"): (typeof documents)["\n  subscription LiveEvents($types: [String!]) {\n    events(types: $types) {\n      eventId\n      sequence\n      type\n      occurredAt\n      resourceType\n      resourceId\n      changedFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateBusinessCustomer($input: CreateBusinessCustomerInput!, $idempotencyKey: String) {\n    createBusinessCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n"): (typeof documents)["\n  mutation CreateBusinessCustomer($input: CreateBusinessCustomerInput!, $idempotencyKey: String) {\n    createBusinessCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateCustomer($input: CreateCustomerInput!, $idempotencyKey: String) {\n    createCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n"): (typeof documents)["\n  mutation CreateCustomer($input: CreateCustomerInput!, $idempotencyKey: String) {\n    createCustomer(input: $input, idempotencyKey: $idempotencyKey) {\n      id\n      customerId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpointList {\n    webhookEndpoints {\n      endpointId\n      url\n      eventTypes\n      enabled\n      disabledReason\n      failingSince\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  query WebhookEndpointList {\n    webhookEndpoints {\n      endpointId\n      url\n      eventTypes\n      enabled\n      disabledReason\n      failingSince\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EnableWebhookEndpoint($endpointId: ID!) {\n    enableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n"): (typeof documents)["\n  mutation EnableWebhookEndpoint($endpointId: ID!) {\n    enableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisableWebhookEndpoint($endpointId: ID!) {\n    disableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n"): (typeof documents)["\n  mutation DisableWebhookEndpoint($endpointId: ID!) {\n    disableWebhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      enabled\n      disabledReason\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret($endpointId: ID!) {\n    rotateWebhookSecret(endpointId: $endpointId) {\n      secret\n      endpoint {\n        endpointId\n        url\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RotateWebhookSecret($endpointId: ID!) {\n    rotateWebhookSecret(endpointId: $endpointId) {\n      secret\n      endpoint {\n        endpointId\n        url\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpointDeliveries($endpointId: ID!) {\n    webhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      url\n      enabled\n      attempts(first: 20) {\n        attemptId\n        eventId\n        attemptedAt\n        statusCode\n        latencyMs\n        succeeded\n        error\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebhookEndpointDeliveries($endpointId: ID!) {\n    webhookEndpoint(endpointId: $endpointId) {\n      endpointId\n      url\n      enabled\n      attempts(first: 20) {\n        attemptId\n        eventId\n        attemptedAt\n        statusCode\n        latencyMs\n        succeeded\n        error\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RedeliverWebhook($endpointId: ID!, $eventId: ID!) {\n    redeliverWebhook(endpointId: $endpointId, eventId: $eventId) {\n      endpointId\n      eventId\n    }\n  }\n"): (typeof documents)["\n  mutation RedeliverWebhook($endpointId: ID!, $eventId: ID!) {\n    redeliverWebhook(endpointId: $endpointId, eventId: $eventId) {\n      endpointId\n      eventId\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;