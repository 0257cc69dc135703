package io.streamledger.command.orders;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.streamledger.command.testing.CommandFixture;
import io.streamledger.command.testing.CommandFixture.Reply;
import io.streamledger.local.LocalDynamoDbExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * AP01 strong get, AP02/AP03 eventual listings with an opaque validated cursor, tenant isolation.
 */
class OrderReadsITCase {

    @RegisterExtension static LocalDynamoDbExtension local = new LocalDynamoDbExtension();

    static CommandFixture f;

    @BeforeAll
    static void start() {
        f = new CommandFixture(local.endpoint());
        // admission reserves buying power (AP12): the accounts start funded
        f.fundUsd("ACC-L");
        f.fundUsd("ACC-ISO");
        f.fund(CommandFixture.KEY_B, "ACC-ISO", "currency", "USD", "100000.00");
        for (int i = 0; i < 5; i++) {
            Reply r =
                    f.post(
                            "/v1/orders",
                            CommandFixture.KEY_A,
                            "k-list-" + i,
                            CommandFixture.order("c-list-" + i, "ACC-L", "2"));
            assertThat(r.status()).isEqualTo(201);
            f.clock.advance(java.time.Duration.ofMillis(5));
        }
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    @Test
    void listsAccountOrdersNewestFirstAcrossPages() {
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Reply r =
                    f.get(
                            "/v1/accounts/ACC-L/orders?limit=2"
                                    + (cursor == null ? "" : "&cursor=" + cursor),
                            CommandFixture.KEY_A);
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            for (JsonNode o : r.json().get("orders")) {
                seen.add(o.get("orderId").asText());
                assertThat(o.get("status").asText()).isEqualTo("ACCEPTED");
                assertThat(o.get("quantity").asText()).isEqualTo("2");
            }
            cursor = r.json().get("cursor").isNull() ? null : r.json().get("cursor").asText();
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(seen).hasSize(5).doesNotHaveDuplicates();
        List<String> createdOrder = new ArrayList<>();
        for (int i = 4; i >= 0; i--) {
            createdOrder.add(
                    io.streamledger.command.config.DeterministicIds.orderId(
                            CommandFixture.TENANT_A, "c-list-" + i));
        }
        assertThat(seen).isEqualTo(createdOrder);
    }

    @Test
    void statusListingUsesTheSparseIndexAndRejectsTerminalStatus() {
        Reply r = f.get("/v1/accounts/ACC-L/orders?status=ACCEPTED", CommandFixture.KEY_A);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().get("orders")).hasSize(5);
        assertThat(
                        f.get(
                                        "/v1/accounts/ACC-L/orders?status=PARTIALLY_FILLED",
                                        CommandFixture.KEY_A)
                                .json()
                                .get("orders"))
                .isEmpty();
        assertThat(f.get("/v1/accounts/ACC-L/orders?status=FILLED", CommandFixture.KEY_A).status())
                .isEqualTo(400);
        assertThat(f.get("/v1/accounts/ACC-L/orders?status=BOGUS", CommandFixture.KEY_A).status())
                .isEqualTo(400);
    }

    @Test
    void cursorIsValidated() {
        Reply page = f.get("/v1/accounts/ACC-L/orders?limit=1", CommandFixture.KEY_A);
        String cursor = page.json().get("cursor").asText();
        assertThat(
                        f.get("/v1/accounts/ACC-L/orders?cursor=not-base64!!", CommandFixture.KEY_A)
                                .json()
                                .at("/error/code")
                                .asText())
                .isEqualTo("INVALID_CURSOR");
        // a cursor of another partition (account or tenant) is refused, never followed
        Reply other = f.get("/v1/accounts/ACC-OTHER/orders?cursor=" + cursor, CommandFixture.KEY_A);
        assertThat(other.status()).isEqualTo(400);
        Reply crossTenant =
                f.get("/v1/accounts/ACC-L/orders?cursor=" + cursor, CommandFixture.KEY_B);
        assertThat(crossTenant.status()).isEqualTo(400);
    }

    @Test
    void tenantsCannotSeeOrTouchEachOthersOrders() {
        String orderA =
                f.post(
                                "/v1/orders",
                                CommandFixture.KEY_A,
                                "k-iso-a",
                                CommandFixture.order("c-iso", "ACC-ISO", "1"))
                        .json()
                        .at("/order/orderId")
                        .asText();
        String orderB =
                f.post(
                                "/v1/orders",
                                CommandFixture.KEY_B,
                                "k-iso-b",
                                CommandFixture.order("c-iso", "ACC-ISO", "1"))
                        .json()
                        .at("/order/orderId")
                        .asText();
        assertThat(orderA).isNotEqualTo(orderB);
        // same Idempotency-Key and clientOrderId in two tenants are independent
        assertThat(f.get("/v1/orders/" + orderA, CommandFixture.KEY_A).status()).isEqualTo(200);
        assertThat(f.get("/v1/orders/" + orderA, CommandFixture.KEY_B).status()).isEqualTo(404);
        assertThat(f.get("/v1/orders/" + orderB, CommandFixture.KEY_A).status()).isEqualTo(404);
        assertThat(f.get("/v1/accounts/ACC-L/orders", CommandFixture.KEY_B).json().get("orders"))
                .isEmpty();
        assertThat(f.get("/v1/accounts/ACC-ISO/orders", CommandFixture.KEY_B).json().get("orders"))
                .hasSize(1);
        // B cannot fill A's order
        Reply fill =
                f.post(
                        "/v1/orders/" + orderA + "/fills",
                        CommandFixture.KEY_B,
                        null,
                        "{\"fillId\":\"f1\",\"quantity\":\"1\",\"price\":\"10.00\",\"executedAt\":\"2026-11-30T10:00:00Z\"}");
        assertThat(fill.status()).isEqualTo(404);
        assertThat(
                        f.get("/v1/orders/" + orderA, CommandFixture.KEY_A)
                                .json()
                                .at("/order/filledQuantity")
                                .asText())
                .isEqualTo("0");
        // a body cannot choose the tenant
        Reply smuggled =
                f.post(
                        "/v1/orders",
                        CommandFixture.KEY_B,
                        "k-smuggle",
                        CommandFixture.order("c-smuggle", "ACC-ISO", "1")
                                .replace("{", "{\"tenant\":\"tenantA\","));
        assertThat(smuggled.status()).isEqualTo(400);
        assertThat(f.get("/v1/orders/" + orderA, null).status()).isEqualTo(401);
    }
}
