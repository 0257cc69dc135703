/** Order vocabulary shared by the command service and the jobs (AP01, CS04). */
package io.streamledger.model.order;
