package io.streamledger.operators.projection;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.model.json.StrictMapper;
import io.streamledger.model.keys.AuthorityKey;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * The state of one AP12 authority item (IDX11) at one version, as carried in a {@link
 * io.streamledger.operators.gate.GateEvent} payload: amounts as exact decimal strings (CS10).
 *
 * @param tenant tenant
 * @param accountId account
 * @param assetType CASH or SEC
 * @param asset currency or symbol
 * @param posted posted balance
 * @param reserved reserved amount
 * @param available posted − reserved
 * @param version authority version
 */
public record AuthoritySnapshot(
        String tenant,
        String accountId,
        AuthorityKey.Kind assetType,
        String asset,
        BigDecimal posted,
        BigDecimal reserved,
        BigDecimal available,
        long version) {

    private static final ObjectMapper MAPPER = StrictMapper.MAPPER;

    public AuthoritySnapshot {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(assetType, "assetType");
        Objects.requireNonNull(asset, "asset");
        Objects.requireNonNull(posted, "posted");
        Objects.requireNonNull(reserved, "reserved");
        Objects.requireNonNull(available, "available");
    }

    public String toJson() {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("tenant", tenant);
        o.put("accountId", accountId);
        o.put("assetType", assetType.name());
        o.put("asset", asset);
        o.put("posted", posted.toPlainString());
        o.put("reserved", reserved.toPlainString());
        o.put("available", available.toPlainString());
        o.put("version", version);
        try {
            return MAPPER.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @throws IllegalArgumentException when the payload is not a snapshot
     */
    public static AuthoritySnapshot fromJson(String json) {
        try {
            JsonNode n = MAPPER.readTree(json);
            return new AuthoritySnapshot(
                    n.get("tenant").textValue(),
                    n.get("accountId").textValue(),
                    AuthorityKey.Kind.valueOf(n.get("assetType").textValue()),
                    n.get("asset").textValue(),
                    new BigDecimal(n.get("posted").textValue()),
                    new BigDecimal(n.get("reserved").textValue()),
                    new BigDecimal(n.get("available").textValue()),
                    n.get("version").longValue());
        } catch (JsonProcessingException | RuntimeException e) {
            throw new IllegalArgumentException("not an authority snapshot: " + json, e);
        }
    }
}
