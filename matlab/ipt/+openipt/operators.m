% SPDX-License-Identifier: Apache-2.0
function ops = operators()
% OPENIPT.OPERATORS  The catalogue: a struct array (name, matlab, summary).
ops = openipt_mex('ops');
end
