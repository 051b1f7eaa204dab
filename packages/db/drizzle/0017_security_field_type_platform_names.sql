-- Profile template fields name their value's type as the platform does: "str" for text (was "string").
-- The same meaning, the platform's word; the next migration then allows only int, bool and str.
UPDATE "security_template_fields" SET "field_type" = 'str' WHERE "field_type" = 'string';
