package io.streamledger.model.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The capacity model's inputs (item sizes, rates) must be what the AP rows state, so a changed AP
 * size or rate cannot leave the recomputed figures silently stale.
 */
final class ModelInputRule implements ContractRule {
    static final String RULE = "MODEL_INPUT";

    @Override
    public List<Violation> check(Contract contract) {
        List<Violation> out = new ArrayList<>();
        for (ModelInput input : CapacityModel.modelInputs()) {
            Optional<AccessPatternRow> ap = contract.accessPattern(input.accessPattern());
            if (ap.isEmpty()) {
                out.add(new Violation(RULE, input.accessPattern(), "AP row missing"));
                continue;
            }
            String text = input.field().of(ap.get());
            // whole token: no digit or decimal point may extend the number at its start
            Pattern token = Pattern.compile("(?<![\\d.])" + Pattern.quote(input.fragment()));
            if (!token.matcher(text).find()) {
                out.add(
                        new Violation(
                                RULE,
                                input.accessPattern(),
                                input.constant()
                                        + " expects '"
                                        + input.fragment()
                                        + "' in '"
                                        + text
                                        + "'"));
            }
        }
        return out;
    }
}
