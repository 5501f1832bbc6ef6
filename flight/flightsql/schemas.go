package flightsql

import (
	"github.com/alkaid-go/alkaid/alkaid"
	"github.com/alkaid-go/alkaid/datatype"
)

// The result schemas of the metadata commands, as Flight SQL fixes them.
// Each call returns a new schema.

func field(name string, t datatype.DataType, nullable bool) datatype.Field {
	return datatype.Field{Name: name, Type: t, Nullable: nullable}
}

func schemaOf(fs ...datatype.Field) *alkaid.Schema { return alkaid.NewSchema(fs, datatype.Metadata{}) }

// CatalogsSchema is the schema of a [GetCatalogs] result.
func CatalogsSchema() *alkaid.Schema {
	return schemaOf(field("catalog_name", datatype.String, false))
}

// DBSchemasSchema is the schema of a [GetDBSchemas] result.
func DBSchemasSchema() *alkaid.Schema {
	return schemaOf(field("catalog_name", datatype.String, true), field("db_schema_name", datatype.String, false))
}

// TablesSchema is the schema of a [GetTables] result; withSchema adds the
// table_schema column (a serialized schema) that include_schema asks for.
func TablesSchema(withSchema bool) *alkaid.Schema {
	fs := []datatype.Field{
		field("catalog_name", datatype.String, true),
		field("db_schema_name", datatype.String, true),
		field("table_name", datatype.String, false),
		field("table_type", datatype.String, false),
	}
	if withSchema {
		fs = append(fs, field("table_schema", datatype.Binary, false))
	}
	return schemaOf(fs...)
}

// TableTypesSchema is the schema of a [GetTableTypes] result.
func TableTypesSchema() *alkaid.Schema {
	return schemaOf(field("table_type", datatype.String, false))
}

// PrimaryKeysSchema is the schema of a [GetPrimaryKeys] result.
func PrimaryKeysSchema() *alkaid.Schema {
	return schemaOf(
		field("catalog_name", datatype.String, true),
		field("db_schema_name", datatype.String, true),
		field("table_name", datatype.String, false),
		field("column_name", datatype.String, false),
		field("key_sequence", datatype.Int32, false),
		field("key_name", datatype.String, true),
	)
}

// ForeignKeysSchema is the schema of a [GetImportedKeys],
// [GetExportedKeys] or [GetCrossReference] result.
func ForeignKeysSchema() *alkaid.Schema {
	return schemaOf(
		field("pk_catalog_name", datatype.String, true),
		field("pk_db_schema_name", datatype.String, true),
		field("pk_table_name", datatype.String, false),
		field("pk_column_name", datatype.String, false),
		field("fk_catalog_name", datatype.String, true),
		field("fk_db_schema_name", datatype.String, true),
		field("fk_table_name", datatype.String, false),
		field("fk_column_name", datatype.String, false),
		field("key_sequence", datatype.Int32, false),
		field("fk_key_name", datatype.String, true),
		field("pk_key_name", datatype.String, true),
		field("update_rule", datatype.Uint8, false),
		field("delete_rule", datatype.Uint8, false),
	)
}

// XdbcTypeInfoSchema is the schema of a [GetXdbcTypeInfo] result.
func XdbcTypeInfoSchema() *alkaid.Schema {
	i32, str, b := datatype.Int32, datatype.String, datatype.Bool
	return schemaOf(
		field("type_name", str, false),
		field("data_type", i32, false),
		field("column_size", i32, true),
		field("literal_prefix", str, true),
		field("literal_suffix", str, true),
		field("create_params", datatype.ListOfField(field("item", str, false)), true),
		field("nullable", i32, false),
		field("case_sensitive", b, false),
		field("searchable", i32, false),
		field("unsigned_attribute", b, true),
		field("fixed_prec_scale", b, false),
		field("auto_increment", b, true),
		field("local_type_name", str, true),
		field("minimum_scale", i32, true),
		field("maximum_scale", i32, true),
		field("sql_data_type", i32, false),
		field("datetime_subcode", i32, true),
		field("num_prec_radix", i32, true),
		field("interval_precision", i32, true),
	)
}

// sqlInfoValueType is the dense union of a SqlInfo value: string, bool,
// int64, int32 bitmask, list of strings, map of int32 to int32 lists.
func sqlInfoValueType() *datatype.UnionType {
	t, _ := datatype.NewUnion(datatype.Dense, []datatype.Field{
		field("string_value", datatype.String, false),
		field("bool_value", datatype.Bool, false),
		field("bigint_value", datatype.Int64, false),
		field("int32_bitmask", datatype.Int32, false),
		field("string_list", datatype.ListOf(datatype.String), false),
		field("int32_to_int32_list_map", datatype.MapOf(datatype.Int32, datatype.ListOf(datatype.Int32), false), false),
	}, []int8{0, 1, 2, 3, 4, 5})
	return t
}

// SqlInfoSchema is the schema of a [GetSqlInfo] result.
func SqlInfoSchema() *alkaid.Schema {
	return schemaOf(field("info_name", datatype.Uint32, false), field("value", sqlInfoValueType(), false))
}

// emptySchema is a schema of no columns.
func emptySchema() *alkaid.Schema { return schemaOf() }
