% SPDX-License-Identifier: Apache-2.0
function s = schema(op)
% OPENIPT.SCHEMA  The parameters of operator OP: a struct array (name, kind,
% optional, values, default, classes, doc), in catalogue order.
s = openipt_mex('schema', op);
end
