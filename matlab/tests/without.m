% SPDX-License-Identifier: Apache-2.0
function out = without(shadow, f)
% f() with the shadows (folder SHADOW) off the path; the path comes back
% also when f fails.
rmpath(shadow);
back = onCleanup(@() addpath(shadow));
out = f();
end
